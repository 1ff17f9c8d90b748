import { readFileSync } from 'node:fs';
import { ROUTES } from '#lambdas/definitions/routes';
import { OPENAPI_PATH, renderOpenApi } from '#scripts/openapi';
import { validate, type Schema } from '#test/support/json-schema';
import { undocumented } from '#test/support/openapi';

test('docs/openapi.json is what the schemas make (run `npm run openapi` after changing them)', () => {
  expect(readFileSync(OPENAPI_PATH, 'utf8')).toBe(renderOpenApi());
});

test('every route is documented, with its error shape and x-request-id on every response', () => {
  const document = JSON.parse(renderOpenApi()) as { paths: Record<string, Record<string, { responses: Record<string, Schema> }>> };
  for (const route of ROUTES) {
    const operation = document.paths[route.path]?.[route.method.toLowerCase()];
    expect(operation).toBeDefined();
    for (const [status, response] of Object.entries(operation?.responses ?? {})) {
      expect(response.headers).toHaveProperty('x-request-id');
      if (Number(status) >= 400 && status !== '503') {
        expect(response.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
      }
    }
  }
});

describe('the checker of real responses can fail', () => {
  const claim = { data: 'AAAA', type: 'text', filename: null, mimetype: null, remaining: 0 };
  const headers = {
    'content-type': 'application/json',
    'x-request-id': 'r',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': '99',
    'x-ratelimit-reset': '1795286979794',
  };
  const id = '/secrets/J8k051Rl3B2N5nxEX7V-gg';

  test('a conforming claim passes', () => {
    expect(undocumented('GET', id, { status: 200, headers, body: claim })).toEqual([]);
  });

  test.each([
    ['an undocumented status', { status: 418, headers, body: claim }, 'answered 418'],
    [
      'a missing rate-limit header',
      { status: 200, headers: { ...headers, 'x-ratelimit-limit': undefined } as unknown as Record<string, string>, body: claim },
      'header X-RateLimit-Limit is missing',
    ],
    ['an extra field', { status: 200, headers, body: { ...claim, owner: 'x' } }, 'body: has unexpected owner'],
    ['a wrong type', { status: 200, headers, body: { ...claim, remaining: '0' } }, 'body.remaining: is string'],
    ['remaining out of range', { status: 200, headers, body: { ...claim, remaining: 5 } }, 'exclusiveMaximum 5'],
    ['an error without its message', { status: 404, headers, body: {} }, 'body: lacks error'],
    ['a 429 without retry-after', { status: 429, headers, body: { error: 'x' } }, 'header Retry-After is missing'],
  ])('%s', (_, observed, problem) => {
    expect(undocumented('GET', id, observed).join('\n')).toContain(problem);
  });

  test('a keyword the validator does not know throws instead of passing', () => {
    expect(() => validate({ uniqueItems: true }, [], {})).toThrow('uniqueItems');
  });
});
