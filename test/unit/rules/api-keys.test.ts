import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { apiKeyHint, bearerKeyFrom, generateApiKey, generateWebhookSecret, hashApiKey, isWellFormedApiKey } from '#lambdas/rules/api-keys';

const KEY = /^svc_[A-Za-z0-9]{32}$/;
const alphanumeric32 = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
  minLength: 32,
  maxLength: 32,
});

describe('generateApiKey', () => {
  test('is svc_ followed by 32 alphanumeric characters', () => {
    for (let i = 0; i < 200; i++) expect(generateApiKey()).toMatch(KEY);
  });

  test('generated keys differ from each other', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  test('uses the whole alphanumeric alphabet (not, say, hex)', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateApiKey().slice('svc_'.length)).join(''));
    expect(seen.size).toBe(62);
  });

  test('is accepted by isWellFormedApiKey', () => {
    expect(isWellFormedApiKey(generateApiKey())).toBe(true);
  });
});

describe('generateWebhookSecret', () => {
  test('is whsec_ followed by at least 32 alphanumeric characters, and differs each time', () => {
    const secrets = Array.from({ length: 200 }, generateWebhookSecret);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32,}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});

describe('hashApiKey', () => {
  test('is the lowercase hex SHA-256 of the key', () => {
    fc.assert(
      fc.property(alphanumeric32, (random) => {
        const key = `svc_${random}`;
        const digest = hashApiKey(key);
        expect(digest).toMatch(/^[0-9a-f]{64}$/);
        expect(digest).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
      }),
    );
    // Known vector: SHA-256("abc").
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('apiKeyHint', () => {
  test('is svc_****<last 4> and reveals nothing else of the key', () => {
    fc.assert(
      fc.property(alphanumeric32, (random) => {
        const hint = apiKeyHint(`svc_${random}`);
        expect(hint).toBe(`svc_****${random.slice(-4)}`);
        expect(hint).not.toContain(random.slice(0, 28));
      }),
    );
  });
});

describe('bearerKeyFrom', () => {
  const key = 'svc_' + 'aB3'.repeat(10) + 'xY';

  test.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the scheme written %s', (scheme) => {
    expect(bearerKeyFrom(`${scheme} ${key}`)).toBe(key);
  });

  test('accepts extra spaces between scheme and key and trailing whitespace', () => {
    expect(bearerKeyFrom(`Bearer   ${key}`)).toBe(key);
    expect(bearerKeyFrom(`Bearer ${key}  `)).toBe(key);
  });

  test.each([
    ['missing header', undefined],
    ['empty header', ''],
    ['Basic scheme', `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
    ['Basic scheme with the key', `Basic ${key}`],
    ['scheme only', 'Bearer'],
    ['scheme and space only', 'Bearer '],
    ['no scheme', key],
    ['no space after scheme', `Bearer${key}`],
    ['extra token', `Bearer ${key} extra`],
    ['two keys', `Bearer ${key} ${key}`],
    ['wrong prefix', `Bearer sk_${key.slice(4)}`],
    ['key too short', `Bearer ${key.slice(0, -1)}`],
    ['key too long', `Bearer ${key}Z`],
    ['non-alphanumeric key character', `Bearer ${key.slice(0, -1)}-`],
    ['uppercase prefix', `Bearer SVC_${key.slice(4)}`],
  ])('rejects %s', (_label, header) => {
    expect(bearerKeyFrom(header)).toBeUndefined();
  });
});
