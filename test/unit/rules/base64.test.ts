import fc from 'fast-check';
import * as nodeRules from '#contract/base64';
import { MAX_BODY_BYTES } from '#contract/limits';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const { isCanonicalBase64 } = nodeRules;

/** The rules as a browser runs them: loaded where there is no Buffer, so they take atob and btoa. */
function loadedWithoutBuffer(): typeof nodeRules {
  const buffer = globalThis.Buffer;
  let loaded: typeof nodeRules | undefined;
  Reflect.deleteProperty(globalThis, 'Buffer');
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- isolateModules loads through require alone
      loaded = require('#contract/base64') as typeof nodeRules;
    });
  } finally {
    globalThis.Buffer = buffer;
  }
  if (!loaded) throw new Error('the rules did not load');
  return loaded;
}

describe.each([
  ['in Node, with Buffer', nodeRules.isStandardBase64],
  ['in a browser, with atob and btoa', loadedWithoutBuffer().isStandardBase64],
])('isStandardBase64 %s', (_, isStandardBase64) => {
  test('accepts Buffer base64 of any non-empty byte string', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) => {
        expect(isStandardBase64(Buffer.from(bytes).toString('base64'))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('rejects the empty string', () => {
    expect(isStandardBase64('')).toBe(false);
  });

  test('rejects an otherwise valid string with one character outside the alphabet', () => {
    const outside = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !ALPHABET.includes(c) && c !== '=');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 3, maxLength: 60 }), outside, fc.nat(), (bytes, bad, at) => {
        const valid = Buffer.from(bytes).toString('base64');
        const position = at % valid.length;
        const corrupted = valid.slice(0, position) + bad + valid.slice(position + 1);
        expect(isStandardBase64(corrupted)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  test.each([' AAA', 'AA A', 'AAA\n', 'AAAA\r\nAAAA', 'AA.A', 'ÄAAA'])('rejects %j (not in the alphabet)', (value) => {
    expect(isStandardBase64(value)).toBe(false);
  });

  test('rejects lengths that are not a multiple of 4', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 3 }), (bytes, cut) => {
        const valid = Buffer.from(bytes).toString('base64');
        fc.pre(valid.length - cut > 0);
        expect(isStandardBase64(valid.slice(0, -cut))).toBe(false);
        expect(isStandardBase64(valid + 'A'.repeat(cut))).toBe(false);
      }),
    );
    // Unpadded base64 (as some encoders emit) is not standard base64.
    expect(isStandardBase64('QQ')).toBe(false);
    expect(isStandardBase64('QUI')).toBe(false);
  });

  test.each(['AA==AAAA', 'A=AA', 'AAA=AAA=', '=AAA', '==AA'])('rejects padding in the middle: %j', (value) => {
    expect(isStandardBase64(value)).toBe(false);
  });

  test.each(['A===', 'AAAAA===', '===='])('rejects three or more "=": %j', (value) => {
    expect(isStandardBase64(value)).toBe(false);
  });

  test.each(['QQ==', 'QUI=', 'QUJD', '+/+/', 'AAAAAA=='])('accepts valid padding forms: %j', (value) => {
    expect(isStandardBase64(value)).toBe(true);
  });

  test('rejects base64url (- and _) wherever it differs from standard base64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), (bytes) => {
        const url = Buffer.from(bytes).toString('base64url');
        const padded = url + '='.repeat((4 - (url.length % 4)) % 4);
        if (/[-_]/.test(url)) expect(isStandardBase64(padded)).toBe(false);
      }),
      { numRuns: 500 },
    );
    expect(isStandardBase64('-_-_')).toBe(false);
    expect(isStandardBase64('ab-c')).toBe(false);
    expect(isStandardBase64('ab_c')).toBe(false);
  });

  test('handles a 5 MiB string (accepts it, and rejects one with a bad last character)', () => {
    const big = Buffer.alloc(Math.floor((MAX_BODY_BYTES * 3) / 4), 0xab).toString('base64');
    expect(big.length).toBeGreaterThanOrEqual(MAX_BODY_BYTES - 4);
    expect(isStandardBase64(big)).toBe(true);
    expect(isStandardBase64(big.slice(0, -1) + '!')).toBe(false);
    expect(isStandardBase64('A'.repeat(MAX_BODY_BYTES - 2) + '=' + 'A')).toBe(false);
  });
});

describe('isCanonicalBase64', () => {
  test('what Node encodes, of every length of the last quantum, is canonical', () => {
    for (const bytes of [[], [0xff], [0xff, 0xfe], [0xff, 0xfe, 0xfd], [1, 2, 3, 4]]) {
      expect(isCanonicalBase64(Buffer.from(bytes).toString('base64'))).toBe(true);
    }
  });

  test.each(['QR==', 'QZ==', 'Q/==', 'QUJ=', 'QUL='])('%s leaves padding bits set: not canonical', (value) => {
    expect(isCanonicalBase64(value)).toBe(false);
    // Which is why: its bytes encode to something else.
    expect(Buffer.from(value, 'base64').toString('base64')).not.toBe(value);
  });
});
