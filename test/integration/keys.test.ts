import { ERRORS } from '#contract/errors';
import { KEY_LIFETIME_MS } from '#contract/limits';
import { api, createKey, createSecret, freshClientAddress, usedUpClientAddress } from '../support/api';
import { closeStore, expireKey, storedKeyItem } from './support/store';
import { createHash } from 'node:crypto';

afterAll(closeStore);

describe('POST /keys', () => {
  test('issues a key, its expiry 90 days on and a webhook signing secret; 201', async () => {
    const before = Date.now();
    const response = await api('POST', '/keys', { localAddress: freshClientAddress() });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['expires', 'key', 'webhookSecret']);
    expect(response.body.key).toMatch(/^svc_[A-Za-z0-9]{32}$/);
    expect(response.body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9]{32,}$/);
    const expires = response.body.expires as number;
    expect(expires).toBeGreaterThanOrEqual(before + KEY_LIFETIME_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + KEY_LIFETIME_MS);

    const info = await api('GET', '/keys', { key: response.body.key as string });
    expect(info.body.expires).toBe((info.body.created as number) + KEY_LIFETIME_MS);
  });

  test('stores only the SHA-256 of the key, never the key', async () => {
    const { key } = await createKey();
    const item = await storedKeyItem(key);
    expect(item?.pk).toBe(`key#${createHash('sha256').update(key).digest('hex')}`);
    expect(JSON.stringify(item)).not.toContain(key);
    expect(JSON.stringify(item)).not.toContain(key.slice(4));
  });

  test('keys are distinct', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => createKey()));
    expect(new Set(keys.map((k) => k.key)).size).toBe(5);
    expect(new Set(keys.map((k) => k.webhookSecret)).size).toBe(5);
  });

  test('accepts an optional HTTPS webhook, shown by GET /keys', async () => {
    const { key } = await createKey({ webhook: 'https://hooks.example.com/secrets?team=1' });
    const info = await api('GET', '/keys', { key });
    expect(info.body.webhook).toBe('https://hooks.example.com/secrets?team=1');
  });

  test.each([
    [{ webhook: 'http://hooks.example.com/x' }, ERRORS.webhook],
    [{ webhook: 'https://user:pass@hooks.example.com/x' }, ERRORS.webhook],
    [{ webhook: 'not a url' }, ERRORS.webhook],
    [{ webhook: `https://hooks.example.com/${'a'.repeat(2048)}` }, ERRORS.webhook],
    [{ webhook: 42 }, ERRORS.webhook],
    [{ webhook: 'https://127.0.0.1/x' }, ERRORS.webhookHostNotPublic],
    [{ webhook: 'https://localhost/x' }, ERRORS.webhookHostNotPublic],
    [{ webhook: 'https://169.254.169.254/latest/meta-data' }, ERRORS.webhookHostNotPublic],
    [{ webhook: 'https://10.0.0.8/x' }, ERRORS.webhookHostNotPublic],
    [{ webhook: 'https://[::1]/x' }, ERRORS.webhookHostNotPublic],
    [{ hook: 'https://hooks.example.com' }, ERRORS.unknownField('hook')],
  ])('refuses %j with 400 and issues no key', async (json, message) => {
    const address = freshClientAddress();
    const response = await api('POST', '/keys', { json, localAddress: address });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
  });

  test('is limited per client address: the 21st key within the hour gets 429 with retry-after', async () => {
    const address = usedUpClientAddress();
    for (let i = 0; i < 20; i++) {
      const response = await api('POST', '/keys', { localAddress: address });
      expect(response.status).toBe(201);
    }
    const refused = await api('POST', '/keys', { localAddress: address });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: ERRORS.keyCreationLimited });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);

    // Another address is not affected.
    expect((await api('POST', '/keys', { localAddress: freshClientAddress() })).status).toBe(201);
  });
});

describe('GET /keys', () => {
  test('shows hint, created, expires and webhookSecret; no webhook field when none is set', async () => {
    const created = await createKey();
    const response = await api('GET', '/keys', { key: created.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      hint: `svc_****${created.key.slice(-4)}`,
      created: expect.any(Number),
      expires: created.expires,
      webhookSecret: created.webhookSecret,
    });
    expect('webhook' in response.body).toBe(false);
  });
});

describe('PATCH /keys', () => {
  test('sets, replaces and removes the webhook', async () => {
    const { key } = await createKey();
    const set = await api('PATCH', '/keys', { key, json: { webhook: 'https://a.example.com/hook' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ updated: true });
    expect((await api('GET', '/keys', { key })).body.webhook).toBe('https://a.example.com/hook');

    await api('PATCH', '/keys', { key, json: { webhook: 'https://b.example.com/hook' } });
    expect((await api('GET', '/keys', { key })).body.webhook).toBe('https://b.example.com/hook');

    const removed = await api('PATCH', '/keys', { key, json: { webhook: '' } });
    expect(removed.body).toEqual({ updated: true });
    expect('webhook' in (await api('GET', '/keys', { key })).body).toBe(false);
  });

  test.each([
    [{}, ERRORS.webhookRequired],
    [{ webhook: null }, ERRORS.webhookRequired],
    [{ webhook: 'ftp://a.example.com' }, ERRORS.webhook],
    [{ webhook: 'https://192.168.1.1/hook' }, ERRORS.webhookHostNotPublic],
    [{ webhook: '', extra: 1 }, ERRORS.unknownField('extra')],
  ])('refuses %j with 400 and keeps the webhook as it was', async (json, message) => {
    const { key } = await createKey({ webhook: 'https://kept.example.com/hook' });
    const response = await api('PATCH', '/keys', { key, json });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
    expect((await api('GET', '/keys', { key })).body.webhook).toBe('https://kept.example.com/hook');
  });

  test('without a body gets 400', async () => {
    const { key } = await createKey();
    const response = await api('PATCH', '/keys', { key });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: ERRORS.bodyRequired });
  });
});

describe('DELETE /keys', () => {
  test('revokes the calling key at once: its next request gets 401', async () => {
    const { key } = await createKey();
    const other = await createKey();
    const { id } = await createSecret(key, { data: 'c2VjcmV0' });

    const response = await api('DELETE', '/keys', { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deleted: true });

    for (const [method, path] of [
      ['GET', '/keys'],
      ['DELETE', '/keys'],
      ['GET', `/secrets/${id}`],
    ] as const) {
      const after = await api(method, path, { key });
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ error: ERRORS.invalidApiKey });
    }
    // Other keys keep working, and the revoked key's secret is still there for them to claim.
    expect((await api('GET', `/secrets/${id}`, { key: other.key })).status).toBe(200);
  });
});

describe('authentication', () => {
  test.each([
    ['no Authorization header', {}, ERRORS.missingCredentials],
    ['another scheme', { authorization: 'Basic c3ZjX3h4eDp5eXk=' }, ERRORS.invalidApiKey],
    ['a malformed key', { authorization: 'Bearer svc_short' }, ERRORS.invalidApiKey],
    ['a key without its prefix', { authorization: `Bearer ${'a'.repeat(36)}` }, ERRORS.invalidApiKey],
    ['an unknown well-formed key', { authorization: `Bearer svc_${'A'.repeat(32)}` }, ERRORS.invalidApiKey],
    ['an empty bearer', { authorization: 'Bearer ' }, ERRORS.invalidApiKey],
  ])('%s gets 401', async (_, headers, message) => {
    const response = await api('GET', '/keys', { headers });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: message });
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });

  test('the scheme word is case-insensitive', async () => {
    const { key } = await createKey();
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect((await api('GET', '/keys', { headers: { authorization: `${scheme} ${key}` } })).status).toBe(200);
    }
  });

  test('an expired key gets 401 "API key expired" on every route', async () => {
    const { key } = await createKey();
    const { id } = await createSecret(key, { data: 'c2VjcmV0' });
    await expireKey(key);
    const attempts = [
      api('GET', '/keys', { key }),
      api('PATCH', '/keys', { key, json: { webhook: '' } }),
      api('DELETE', '/keys', { key }),
      api('POST', '/secrets', { key, json: { data: 'c2VjcmV0' } }),
      api('GET', `/secrets/${id}`, { key }),
      api('DELETE', `/secrets/${id}`, { key }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: ERRORS.expiredApiKey });
    }
  });
});
