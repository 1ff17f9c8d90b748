import fc from 'fast-check';
import { SECRET_TYPES } from '#contract/limits';
import { claimedSecretJson } from '#lambdas/http/claimed-secret-json';

describe('claimedSecretJson', () => {
  test('is the text JSON.stringify makes of the claim body, for any base64 data and any filename or mimetype', () => {
    fc.assert(
      fc.property(
        fc.base64String(),
        fc.constantFrom(...SECRET_TYPES),
        fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
        fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
        fc.nat(),
        (data, type, filename, mimetype, remaining) => {
          const secret = { data, type, remaining, ...(filename !== undefined ? { filename } : {}), ...(mimetype !== undefined ? { mimetype } : {}) };
          const expected = JSON.stringify({ data, type, filename: filename ?? null, mimetype: mimetype ?? null, remaining });
          expect(claimedSecretJson(secret)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('a filename with quotes, backslashes and control characters stays one escaped JSON string', () => {
    const text = claimedSecretJson({ data: 'c2VjcmV0', type: 'file', filename: 'a"b\\c\n.pdf', remaining: 0 });
    expect(JSON.parse(text)).toStrictEqual({ data: 'c2VjcmV0', type: 'file', filename: 'a"b\\c\n.pdf', mimetype: null, remaining: 0 });
  });
});
