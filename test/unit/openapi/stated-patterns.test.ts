import fc from 'fast-check';
import { createECDH } from 'node:crypto';
import { isStandardBase64 } from '#contract/base64';
import { isP256PublicKey } from '#contract/p256';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { SECRET_ID_BYTES } from '#contract/limits';
import { renderOpenApi, STANDARD_BASE64_PATTERN } from '#scripts/openapi';
import { validate, type Schema } from '#test/support/json-schema';

/**
 * docs/openapi.json states as patterns what the handlers check otherwise (a refinement that is
 * faster on 5 MiB, a curve equation). A client that checks the pattern must accept what the
 * service accepts and refuse what it refuses.
 */

const standardBase64 = new RegExp(STANDARD_BASE64_PATTERN);
/** The alphabet, padding, base64url's two, whitespace and one character no base64 has. */
const NEAR_BASE64 = [...'ABCDQRSTwxyz0189+/', '=', '-', '_', ' ', '\n', '.'];

describe('the base64 pattern of `data`', () => {
  test('gives the answers isStandardBase64 gives', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...NEAR_BASE64), maxLength: 16 }), (value) => {
        expect(standardBase64.test(value)).toBe(isStandardBase64(value));
      }),
      { numRuns: 5_000 },
    );
  });

  test('accepts the base64 of any bytes, and refuses the cases a client gets wrong', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) => {
        expect(standardBase64.test(Buffer.from(bytes).toString('base64'))).toBe(true);
      }),
    );
    for (const refused of ['', 'QQ', 'QQ=', 'Q===', 'QQ==QQ==', 'QQ-_', 'QQ== ']) {
      expect([refused, standardBase64.test(refused), isStandardBase64(refused)]).toEqual([refused, false, false]);
    }
  });
});

test('the public key pattern accepts every P-256 key and refuses what is not base64url of 65 bytes', () => {
  const document = JSON.parse(renderOpenApi()) as {
    paths: {
      '/requests': { post: { requestBody: { content: { 'application/json': { schema: { properties: { publicKey: { pattern: string } } } } } } } };
    };
  };
  const pattern = new RegExp(document.paths['/requests'].post.requestBody.content['application/json'].schema.properties.publicKey.pattern);
  for (let made = 0; made < 50; made += 1) {
    const key = createECDH('prime256v1').generateKeys().toString('base64url');
    expect([isP256PublicKey(key), pattern.test(key)]).toEqual([true, true]);
  }
  const key = createECDH('prime256v1').generateKeys().toString('base64url');
  for (const refused of [key.slice(1), `${key}A`, key.replace(/.$/, '+'), Buffer.from(key, 'base64url').toString('base64')]) {
    expect(pattern.test(refused)).toBe(false);
  }
});

test('the webhook of PATCH /keys may be a URL or "", which removes it', () => {
  const document = JSON.parse(renderOpenApi()) as {
    paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>>;
  };
  const bodyOf = (method: string): Schema => document.paths['/keys']?.[method]?.requestBody.content['application/json']?.schema ?? {};
  expect(validate(bodyOf('patch'), { webhook: '' }, document)).toEqual([]);
  expect(validate(bodyOf('patch'), { webhook: 'https://hooks.example.com/x' }, document)).toEqual([]);
  expect(validate(bodyOf('patch'), { webhook: 'x'.repeat(3000) }, document)).not.toEqual([]);
  expect(bodyOf('post')).toMatchObject({ properties: { webhook: { type: 'string', format: 'uri' } } });
});

test("a webhook's data.id states the pattern of the ids secrets and requests are made with", () => {
  const document = JSON.parse(renderOpenApi()) as { components: { schemas: { WebhookEvent: Schema } } };
  const event = (id: string) => ({ event: 'secret.created', timestamp: 1, data: { id } });
  expect(document.components.schemas.WebhookEvent).toMatchObject({
    anyOf: [{ properties: { data: { properties: { id: { pattern: expect.any(String) } } } } }, { properties: { data: { properties: {} } } }],
  });
  // Secrets and requests make their ids alike (use-cases/secrets.ts, use-cases/requests.ts).
  for (let made = 0; made < 20; made += 1) {
    expect(validate(document.components.schemas.WebhookEvent, event(randomUrlSafeId(SECRET_ID_BYTES)), document)).toEqual([]);
  }
  for (const refused of ['short', 'has a space in it ......', 'x'.repeat(21)]) {
    expect(validate(document.components.schemas.WebhookEvent, event(refused), document)).not.toEqual([]);
  }
});
