import { randomBytes } from 'node:crypto';
import { ERRORS } from '#contract/errors';
import { IDEMPOTENCY, MIB, STORED_BYTES_LIMIT } from '#contract/limits';
import { testEnv } from '../support/environment';
import { startLocalServer, type LocalServer } from '../support/local-server';
import { api, createRequest, dataFilling, freshClientAddress } from '../support/api';

/**
 * The daily byte quotas of POST /secrets and POST /requests/{id} (an answer is stored as a secret is), on local mode with the smallest quotas a deployment may
 * set (5 MiB a key, so that the largest body always fits once; 10 MiB an address), sharing the
 * run's DynamoDB Local.
 */

const PER_KEY_MIB = 5;
const PER_ADDRESS_MIB = 10;
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({
    DYNAMODB_ENDPOINT: testEnv('dynamodbEndpoint'),
    STORED_MIB_PER_KEY_PER_DAY: String(PER_KEY_MIB),
    STORED_MIB_PER_ADDRESS_PER_DAY: String(PER_ADDRESS_MIB),
    LOCAL_REQUEST_LOG: 'off',
  });
});
afterAll(() => server.stop());

const post = (key: string, bodyBytes: number, localAddress: string) =>
  api('POST', '/secrets', { key, json: { data: dataFilling(bodyBytes) }, baseUrl: server.baseUrl, localAddress });

const keyFrom = async (localAddress: string): Promise<string> =>
  (await api<{ key: string }>('POST', '/keys', { baseUrl: server.baseUrl, localAddress })).body.key;

test('a key: past its bytes for the day, 429 with retry-after; the refused bytes are not kept', async () => {
  const address = freshClientAddress();
  const key = await keyFrom(address);
  // 4 × 1.2 MB = 4.8 MB of the key's 5 MiB (5.24 MB).
  for (let i = 0; i < 4; i++) expect((await post(key, 1_200_000, address)).status).toBe(201);

  const refused = await post(key, 1_200_000, address);
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ error: ERRORS.storedBytesPerKeyLimited });
  const retryAfter = Number(refused.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual((STORED_BYTES_LIMIT.windowMs + STORED_BYTES_LIMIT.slotMs) / 1000);

  // What is left still fits: the refused 1.2 MB was taken back.
  expect((await post(key, 300_000, address)).status).toBe(201);
});

test('an address: its large bodies across keys are held to its bytes for the day; small ones are not counted', async () => {
  const address = freshClientAddress();
  const keys = [await keyFrom(address), await keyFrom(address), await keyFrom(address)];
  // 2 MB each: 5 fit in the address's 10 MiB (10.49 MB), two a key, so no key meets its own 5 MiB.
  const sent = [keys[0], keys[0], keys[1], keys[1], keys[2]];
  for (const key of sent) expect((await post(key ?? '', 2_000_000, address)).status).toBe(201);

  const refused = await post(keys[2] ?? '', 2_000_000, address);
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ error: ERRORS.storedBytesPerAddressLimited });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

  // Another address is not held by it, and a small body from this one is not counted against it.
  const elsewhere = freshClientAddress();
  expect((await post(await keyFrom(elsewhere), 2_000_000, elsewhere)).status).toBe(201);
  expect((await post(keys[2] ?? '', STORED_BYTES_LIMIT.addressCountedAbove - 1_000, address)).status).toBe(201);
});

test('a keyed create repeated costs no quota: every repeat answers its id, past what the day would hold twice over', async () => {
  const address = freshClientAddress();
  const key = await keyFrom(address);
  const headers = { [IDEMPOTENCY.header]: randomBytes(16).toString('base64url') };
  const json = { data: dataFilling(1_200_000) };
  // 9 × 1.2 MB, were they all counted, would pass both the key's 5 MiB and the address's 10 MiB.
  const answers = [];
  for (let i = 0; i < 9; i++) answers.push(await api('POST', '/secrets', { key, json, headers, baseUrl: server.baseUrl, localAddress: address }));
  expect(answers.map((answer) => answer.status)).toEqual(Array(9).fill(201));
  expect(new Set(answers.map((answer) => answer.raw)).size).toBe(1);
  // Only the first counted: 3 more 1.2 MB fit the key's day.
  for (let i = 0; i < 3; i++) expect((await post(key, 1_200_000, address)).status).toBe(201);
});

/** An open request of a key from an address of its own: answering it is what is counted. */
async function openRequestId(): Promise<string> {
  const requester = await keyFrom(freshClientAddress());
  return (await createRequest(requester, {}, server.baseUrl)).id;
}

const answer = (key: string, id: string, bodyBytes: number, localAddress: string) =>
  api('POST', `/requests/${id}`, { key, json: { data: dataFilling(bodyBytes) }, baseUrl: server.baseUrl, localAddress });

const requestState = async (id: string): Promise<unknown> => {
  const requester = await keyFrom(freshClientAddress());
  return (await api<{ state?: string }>('GET', `/requests/${id}`, { key: requester, baseUrl: server.baseUrl })).body;
};

test("an answer to a request counts against the key's day, shared with its secrets: past it 429, and the request stays open", async () => {
  const address = freshClientAddress();
  const key = await keyFrom(address);
  // 2 secrets and 2 answers of 1.2 MB: 4.8 MB of the key's 5 MiB.
  for (let i = 0; i < 2; i++) expect((await post(key, 1_200_000, address)).status).toBe(201);
  for (let i = 0; i < 2; i++) expect((await answer(key, await openRequestId(), 1_200_000, address)).status).toBe(201);

  const id = await openRequestId();
  const refused = await answer(key, id, 1_200_000, address);
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ error: ERRORS.storedBytesPerKeyLimited });
  const retryAfter = Number(refused.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual((STORED_BYTES_LIMIT.windowMs + STORED_BYTES_LIMIT.slotMs) / 1000);
  // Nothing was stored: the request is still open to an answer.
  expect(await requestState(id)).toMatchObject({ publicKey: expect.any(String) as unknown });
  expect((await post(key, 1_200_000, address)).status).toBe(429);

  // What is left still fits, and answers it.
  expect((await answer(key, id, 300_000, address)).status).toBe(201);
});

test("large answers count against the address's day across keys, with its secrets", async () => {
  const address = freshClientAddress();
  const keys = [await keyFrom(address), await keyFrom(address), await keyFrom(address)];
  // 2 MB each, two a key: 5 fit in the address's 10 MiB.
  expect((await post(keys[0] ?? '', 2_000_000, address)).status).toBe(201);
  for (const key of [keys[0], keys[1], keys[1], keys[2]]) {
    expect((await answer(key ?? '', await openRequestId(), 2_000_000, address)).status).toBe(201);
  }
  const id = await openRequestId();
  const refused = await answer(keys[2] ?? '', id, 2_000_000, address);
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ error: ERRORS.storedBytesPerAddressLimited });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(await requestState(id)).toMatchObject({ publicKey: expect.any(String) as unknown });

  // From another address the same request is answered.
  const elsewhere = freshClientAddress();
  expect((await answer(await keyFrom(elsewhere), id, 2_000_000, elsewhere)).status).toBe(201);
});

test('a bad quota setting stops local mode before it starts, naming the variable', async () => {
  await expect(startLocalServer({ DYNAMODB_ENDPOINT: testEnv('dynamodbEndpoint'), STORED_MIB_PER_KEY_PER_DAY: '1' })).rejects.toThrow(
    /STORED_MIB_PER_KEY_PER_DAY must be an integer from 5/,
  );
  expect(MIB).toBe(1024 * 1024);
});
