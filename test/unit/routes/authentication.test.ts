import '../support/env';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '#lambdas/rules/api-keys';
import { slotIndex } from '#lambdas/rules/sliding-window';
import { ERRORS } from '#contract/errors';
import { MAX_BODY_BYTES, RATE_LIMIT } from '#contract/limits';
import { handler as keysGet } from '#lambdas/routes/keys-get';
import { handler as secretsClaim } from '#lambdas/routes/secrets-claim';
import { handler as secretsCreate } from '#lambdas/routes/secrets-create';
import { expectErrorBody, expectNoRateLimitHeaders, expectRateLimitHeaders, expectStandardHeaders } from '../support/assertions';
import { pinClock } from '../support/clock';
import { conditionFailed, mockDocumentClient, sentCommands } from '../support/dynamo';
import { TEST_ENV } from '../support/env';
import { apiEvent, bearer, invoke, jsonHeaders } from '../support/events';
import { apiKeyFixture, keyItem, serveKeyItem, type KeyItemState } from '../support/key-item';

const ddb = mockDocumentClient();
/** 1 s into a 5 s slot. */
const T0 = 1_750_000_001_000;

beforeEach(() => ddb.reset());
afterEach(() => jest.restoreAllMocks());

const getKeys = (headers: Record<string, string>, requestId?: string) =>
  invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', headers, ...(requestId ? { requestId } : {}) }));

function liveKey(overrides: Partial<KeyItemState> = {}) {
  const fixture = apiKeyFixture();
  const state: { item: KeyItemState | undefined } = { item: keyItem(fixture.pk, overrides) };
  serveKeyItem(ddb, state);
  return { ...fixture, state };
}

describe('401', () => {
  beforeEach(() => pinClock(T0));

  test('missing Authorization header: 401 with the missing-credentials message, no DynamoDB call', async () => {
    const response = await getKeys({});
    expect(response.statusCode).toBe(401);
    expectErrorBody(response, ERRORS.missingCredentials);
    expect(ddb.calls()).toHaveLength(0);
    expectNoRateLimitHeaders(response);
  });

  test.each([
    ['Basic scheme', (key: string) => `Basic ${Buffer.from(`${key}:x`).toString('base64')}`],
    ['malformed key', (key: string) => `Bearer ${key.slice(0, -1)}`],
    ['extra token', (key: string) => `Bearer ${key} x`],
    ['no scheme', (key: string) => key],
  ])('%s: 401 invalid API key, no DynamoDB call', async (_label, authorization) => {
    const response = await getKeys({ Authorization: authorization(apiKeyFixture().key) });
    expect(response.statusCode).toBe(401);
    expectErrorBody(response, ERRORS.invalidApiKey);
    expect(ddb.calls()).toHaveLength(0);
  });

  test('unknown (or revoked) key: 401 invalid API key', async () => {
    const { key } = apiKeyFixture();
    serveKeyItem(ddb, { item: undefined });
    const response = await getKeys(bearer(key));
    expect(response.statusCode).toBe(401);
    expectErrorBody(response, ERRORS.invalidApiKey);
  });

  test('expired key: 401 "API key expired"', async () => {
    const { key } = liveKey({ created: T0 - 100 * 86_400_000, expires: T0 - 1, rl: { [slotIndex(T0) - 1]: 2 } });
    const response = await getKeys(bearer(key));
    expect(response.statusCode).toBe(401);
    expect(response.body).toEqual({ error: 'API key expired' });
    expect(ERRORS.expiredApiKey).toBe('API key expired');
  });

  test('a key that expires exactly now is expired', async () => {
    const { key } = liveKey({ expires: T0 });
    expect((await getKeys(bearer(key))).body).toEqual({ error: ERRORS.expiredApiKey });
  });
});

describe('authenticating', () => {
  beforeEach(() => pinClock(T0));

  test.each(['Bearer', 'bearer', 'BEARER'])('accepts the scheme %s and any header-name case', async (scheme) => {
    const { key } = liveKey();
    for (const name of ['Authorization', 'authorization', 'AUTHORIZATION']) {
      expect((await getKeys({ [name]: `${scheme} ${key}` })).statusCode).toBe(200);
    }
  });

  test('sends DynamoDB only the key hash, never the key', async () => {
    const { key, pk } = liveKey();
    await getKeys(bearer(key));
    const sent = sentCommands(ddb);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input).toMatchObject({ TableName: TEST_ENV.keysTable, Key: { pk } });
    expect(pk).toBe(`key#${hashApiKey(key)}`);
    expect(JSON.stringify(sent)).not.toContain(key);
  });
});

describe('rate limit', () => {
  test('authenticated responses carry x-ratelimit-* and remaining counts down', async () => {
    pinClock(T0);
    const { key } = liveKey();
    for (let i = 1; i <= 3; i++) {
      const response = await getKeys(bearer(key));
      expect(response.statusCode).toBe(200);
      expectRateLimitHeaders(response, T0, RATE_LIMIT.requests - i);
    }
  });

  test('headers are also on 400, 404 and 413 responses to authenticated requests', async () => {
    pinClock(T0);
    const { key } = liveKey();
    ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).rejects(conditionFailed());
    const headers = jsonHeaders(bearer(key));
    const responses = [
      await invoke(secretsCreate, apiEvent({ method: 'POST', path: '/secrets', headers, body: '{"views":9}' })),
      await invoke(secretsClaim, apiEvent({ method: 'GET', path: '/secrets/x', pathParameters: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, headers })),
      await invoke(secretsCreate, apiEvent({ method: 'POST', path: '/secrets', headers, body: ' '.repeat(MAX_BODY_BYTES + 1) })),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([400, 404, 413]);
    responses.forEach((response, i) => expectRateLimitHeaders(response, T0, RATE_LIMIT.requests - 1 - i));
  });

  test('the 101st request within a minute: 429 with the rate-limit headers and retry-after', async () => {
    const clock = pinClock(T0);
    const { key } = liveKey();
    for (let i = 0; i < 100; i++) {
      clock.set(T0 + i * 100);
      expect((await getKeys(bearer(key))).statusCode).toBe(200);
    }
    clock.set(T0 + 10_000);
    const response = await getKeys(bearer(key), 'rid-101st');

    expect(response.statusCode).toBe(429);
    expectStandardHeaders(response, 'rid-101st');
    expectErrorBody(response, ERRORS.rateLimited);
    expectRateLimitHeaders(response, clock.now(), 0);
    const reset = Number(response.headers['x-ratelimit-reset']);
    expect(response.headers['retry-after']).toBe(String(Math.ceil((reset - clock.now()) / 1000)));
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  test('requests older than the window stop counting', async () => {
    const clock = pinClock(T0);
    const { key } = liveKey({ rl: { [slotIndex(T0)]: 100 } });
    expect((await getKeys(bearer(key))).statusCode).toBe(429);
    clock.set(T0 + 65_000);
    const response = await getKeys(bearer(key));
    expect(response.statusCode).toBe(200);
    expectRateLimitHeaders(response, clock.now(), RATE_LIMIT.requests - 1);
  });

  test('a client that waits the announced retry-after (sending nothing meanwhile) is admitted', async () => {
    // 101 requests in one slot, 1 s into it: the 101st is refused.
    const clock = pinClock(T0);
    const { key } = liveKey({ rl: { [slotIndex(T0)]: 100 } });
    const refused = await getKeys(bearer(key));
    expect(refused.statusCode).toBe(429);

    clock.set(T0 + Number(refused.headers['retry-after']) * 1000);
    const retried = await getKeys(bearer(key));
    expect(retried.statusCode).toBe(200);
  });
});
