import { ERRORS } from '#contract/errors';
import { IDEMPOTENCY } from '#contract/limits';
import REQUEST_VECTORS from '../../../client/request-test-vectors.json';
import { OnetimeClient } from '#client/client';
import { connectionRefused, failureOf, fakeFetch, type Scripted } from './fake-fetch';
import { VECTORS } from './vectors';

const BASE = 'https://onetime.example.com/api/v1';
const API_KEY = `svc_${'a'.repeat(32)}`;
const ID = 'J8k051Rl3B2N5nxEX7V-gg';
const LINK = `https://onetime.example.com/${ID}#${VECTORS.keyBase64Url}`;
const CREATED = { status: 201, body: { id: ID, url: `https://onetime.example.com/${ID}` } };
const DELETED = { status: 200, body: { deleted: true } };

function clientWith(...script: Scripted[]) {
  const fake = fakeFetch(...script);
  return { client: new OnetimeClient({ baseUrl: BASE, apiKey: API_KEY, fetch: fake.fetch }), calls: fake.calls };
}

// setImmediate stays real: WebCrypto's work finishes on real turns of the event loop.
beforeEach(() => jest.useFakeTimers({ doNotFake: ['performance', 'setImmediate'] }));
afterEach(() => jest.useRealTimers());

/** Runs `work` to its end, letting the fake clock run through every retry's sleep. */
async function settle<T>(work: Promise<T>): Promise<T> {
  let result: { value: T } | { error: unknown } | undefined;
  work.then(
    (value) => (result = { value }),
    (error: unknown) => (result = { error }),
  );
  while (result === undefined) {
    await new Promise((resolve) => setImmediate(resolve));
    await jest.advanceTimersByTimeAsync(100);
  }
  if ('error' in result) throw result.error;
  return result.value;
}

describe('claims and creates are repeated under one Idempotency-Key, at most 3 tries', () => {
  test.each([
    ['a 500', { status: 500, body: { error: 'internal server error' } }, { kind: 'service', status: 500, message: 'internal server error' }],
    ['a network failure', connectionRefused(), { kind: 'network' }],
  ] as const)('reveal after %s each time: three requests, one key', async (_, failure, expected) => {
    const { client, calls } = clientWith(failure, failure, failure);
    await expect(settle(client.reveal(LINK))).rejects.toMatchObject(expected);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.headers[IDEMPOTENCY.header])).size).toBe(1);
    expect(calls[0]?.headers[IDEMPOTENCY.header]).toMatch(IDEMPOTENCY.pattern);
  });

  test.each([
    ['a 503', { status: 503, body: { error: 'data store unavailable' } }],
    ['a network failure', connectionRefused()],
  ] as const)('share after %s, then its answer: two requests, one key', async (_, failure) => {
    const { client, calls } = clientWith(failure, CREATED);
    await settle(client.share('x'));
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers[IDEMPOTENCY.header]).toBe(calls[0]?.headers[IDEMPOTENCY.header]);
  });

  test('minting a key after a network failure: one request', async () => {
    const { client, calls } = clientWith(connectionRefused());
    await expect(settle(client.createKey())).rejects.toMatchObject({ kind: 'network' });
    expect(calls).toHaveLength(1);
  });
});

describe("a request's fulfilment is repeated under one Idempotency-Key", () => {
  const requestVectors = REQUEST_VECTORS as { recipientPublicKeyBase64Url: string; fingerprint: string };
  const REQUEST_LINK = `https://onetime.example.com/r/${ID}#${requestVectors.fingerprint}`;
  const OPEN_REQUEST = { status: 200, body: { publicKey: requestVectors.recipientPublicKeyBase64Url, note: null, expires: 1_900_000_000_000 } };

  test('after a 502, then its answer: two tries, one key', async () => {
    const { client, calls } = clientWith(OPEN_REQUEST, { status: 502, body: { error: 'bad gateway' } }, { status: 201, body: { fulfilled: true } });
    await settle(client.fulfil(REQUEST_LINK, 'the password'));
    const fulfilments = calls.filter((call) => call.method === 'POST');
    expect(fulfilments).toHaveLength(2);
    expect(fulfilments[0]?.headers[IDEMPOTENCY.header]).toMatch(IDEMPOTENCY.pattern);
    expect(fulfilments[1]?.headers[IDEMPOTENCY.header]).toBe(fulfilments[0]?.headers[IDEMPOTENCY.header]);
  });

  test('a 409 of a request answered already is the answer, not a try still at work', async () => {
    const { client, calls } = clientWith(OPEN_REQUEST, { status: 409, body: { error: ERRORS.requestFulfilled } });
    await expect(settle(client.fulfil(REQUEST_LINK, 'the password'))).rejects.toMatchObject({
      kind: 'gone',
      message: 'the request was already fulfilled',
    });
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  test('a 409 of a try still at work is asked again after retry-after', async () => {
    const inFlight = { status: 409, body: { error: ERRORS.idempotencyInFlight }, headers: { 'retry-after': '1' } };
    const { client, calls } = clientWith(OPEN_REQUEST, inFlight, { status: 201, body: { fulfilled: true } });
    await settle(client.fulfil(REQUEST_LINK, 'the password'));
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2);
  });
});

describe('requests that can be repeated safely are, up to 3 attempts', () => {
  test('revoke after a network failure and a 502', async () => {
    const { client, calls } = clientWith(connectionRefused(), { status: 502, body: { error: 'bad gateway' } }, DELETED);
    await settle(client.revoke(ID));
    expect(calls.map((call) => call.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
  });

  test('key show gives up after the third failure', async () => {
    const { client, calls } = clientWith(connectionRefused(), connectionRefused(), connectionRefused());
    await expect(settle(client.showKey())).rejects.toMatchObject({
      kind: 'network',
      message: 'cannot reach https://onetime.example.com (ECONNREFUSED)',
    });
    expect(calls).toHaveLength(3);
  });
});

describe('429', () => {
  const limited = (retryAfter: string): Scripted => ({ status: 429, body: { error: 'rate limit exceeded' }, headers: { 'retry-after': retryAfter } });

  test('any request, reveal too, is repeated after retry-after', async () => {
    const { client, calls } = clientWith(limited('2'), {
      status: 200,
      body: { data: 'AAAA', type: 'text', filename: null, mimetype: null, remaining: 0 },
    });
    const started = Date.now();
    const revealing = client.reveal(LINK).catch((error: unknown) => error);
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await jest.advanceTimersByTimeAsync(1_999);
    expect(calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(Date.now() - started).toBe(2_000);
    // "AAAA" is no envelope: the request went through, the decryption failed.
    expect(await revealing).toMatchObject({ kind: 'link', reason: 'undecryptable' });
  });

  test('a wait longer than a minute is reported with when to retry', async () => {
    const { client, calls } = clientWith(limited('3600'));
    const now = Date.now();
    await expect(settle(client.createKey())).rejects.toMatchObject({
      kind: 'rate-limited',
      message: 'rate limit exceeded',
      retryAfterMs: 3_600_000,
      retryAt: now + 3_600_000,
    });
    expect(calls).toHaveLength(1);
  });

  test('still limited after 3 attempts', async () => {
    const { client, calls } = clientWith(limited('1'), limited('1'), limited('1'));
    await expect(settle(client.share('x'))).rejects.toMatchObject({ kind: 'rate-limited', retryAfterMs: 1000 });
    expect(calls).toHaveLength(3);
  });
});

describe('answers become typed errors', () => {
  test('404 of a secret: gone', async () => {
    const { client } = clientWith({ status: 404, body: { error: 'secret not found' } });
    await expect(client.reveal(LINK)).rejects.toMatchObject({ kind: 'gone', name: 'SecretGoneError' });
  });

  test('404 of another route (a base URL without /api/v1): a service error', async () => {
    const { client } = clientWith({ status: 404, body: { error: 'route not found' } });
    await expect(client.showKey()).rejects.toMatchObject({ kind: 'service', status: 404, message: 'route not found' });
  });

  test('413: payload too large, with the limit', async () => {
    const { client } = clientWith({ status: 413, body: { error: 'request body exceeds 5242880 bytes (5 MiB)' } });
    await expect(client.share('x')).rejects.toMatchObject({ kind: 'too-large', limitBytes: 5_242_880 });
  });

  test('400: the service’s own message, and its request id', async () => {
    const { client } = clientWith({ status: 400, body: { error: 'webhook must be an absolute https:// URL' }, headers: { 'x-request-id': 'r-1' } });
    await expect(client.updateWebhook('http://x')).rejects.toMatchObject({
      kind: 'service',
      status: 400,
      message: 'webhook must be an absolute https:// URL',
      requestId: 'r-1',
    });
  });

  test('an error page that is not JSON: the status', async () => {
    const page = { status: 502, body: '<html>' };
    const { client } = clientWith(page, page, page);
    await expect(settle(client.share('x'))).rejects.toMatchObject({ kind: 'service', message: 'HTTP 502 from the service' });
  });

  test('a success whose body does not match the schema', async () => {
    const { client } = clientWith({ status: 201, body: { id: 'x' } });
    await expect(client.share('x')).rejects.toMatchObject({ kind: 'service', message: 'unexpected answer from the service' });
  });
});

test('a network failure names the origin only, never the path with the secret’s id', async () => {
  const { client } = clientWith(connectionRefused(), connectionRefused(), connectionRefused());
  const error = await failureOf(settle(client.reveal(LINK)));
  expect(error.message).toBe('cannot reach https://onetime.example.com (ECONNREFUSED)');
  expect(error.message).not.toContain(ID);
});

test('a claim asks for the id alone: the link’s key never leaves the client', async () => {
  const { client, calls } = clientWith({ status: 404, body: { error: 'secret not found' } });
  await expect(client.reveal(LINK)).rejects.toMatchObject({ kind: 'gone' });
  expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([`GET ${BASE}/secrets/${ID}`]);
  expect(JSON.stringify(calls)).not.toContain(VECTORS.keyBase64Url);
});

test('requests carry the API key as a bearer token, JSON bodies their content type', async () => {
  const { client, calls } = clientWith(CREATED);
  await client.share('hello');
  const [call] = calls;
  expect(call?.url).toBe(`${BASE}/secrets`);
  expect(call?.headers).toMatchObject({ authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' });
});
