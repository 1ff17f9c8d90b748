import { randomBytes } from 'node:crypto';
import { ERRORS } from '#contract/errors';
import { IDEMPOTENCY } from '#contract/limits';
import { bodyDigest, idempotencyScope } from '#lambdas/rules/idempotency';
import { eventually } from '../support/eventually';
import { api, base64Of, createKey, createRequest, requestPublicKey } from '../support/api';
import { closeStore, headGoneReceiptKept, itemsOfSecret, putIdempotencyRecord } from './support/store';

/**
 * The Idempotency-Key on a request's create and fulfilment, against local mode (docs/api.md,
 * "Idempotent requests"): a repeat is answered as its first was, and makes no second request nor
 * a second answer; another body under the same key is 422.
 */

afterAll(closeStore);

const freshIdempotencyKey = (): string => randomBytes(16).toString('base64url');
const withKey = (idempotencyKey: string): Record<string, string> => ({ [IDEMPOTENCY.header]: idempotencyKey });
const createWith = (key: string, idempotencyKey: string, json: Record<string, unknown>) =>
  api('POST', '/requests', { key, json, headers: withKey(idempotencyKey) });
const fulfilWith = (key: string, id: string, json: Record<string, unknown>, idempotencyKey?: string) =>
  api('POST', `/requests/${id}`, { key, json, ...(idempotencyKey ? { headers: withKey(idempotencyKey) } : {}) });
const status = (key: string, id: string) => api('GET', `/requests/${id}/status`, { key });
const claim = (key: string, id: string) => api('GET', `/secrets/${id}`, { key });

let requester: string;
let sender: string;
beforeAll(async () => {
  requester = (await createKey()).key;
  sender = (await createKey()).key;
});

describe('POST /requests', () => {
  test('a repeat answers the same id, url and expiry, and the request is the one the first made', async () => {
    const idempotencyKey = freshIdempotencyKey();
    const json = { publicKey: requestPublicKey(), note: 'the VPN password', ttl: '1h' };
    const first = await createWith(requester, idempotencyKey, json);
    expect(first.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const repeat = await createWith(requester, idempotencyKey, json);
    expect(repeat.status).toBe(201);
    expect(repeat.raw).toBe(first.raw);
    const id = first.body.id as string;
    expect(await status(requester, id)).toMatchObject({
      status: 200,
      body: { state: 'open', publicKey: json.publicKey, expires: first.body.expires },
    });
  });

  test('a repeat after the request was answered leaves the answer alone', async () => {
    const idempotencyKey = freshIdempotencyKey();
    const json = { publicKey: requestPublicKey() };
    const first = await createWith(requester, idempotencyKey, json);
    const id = first.body.id as string;
    expect((await fulfilWith(sender, id, { data: 'YW5zd2Vy' })).status).toBe(201);
    const repeat = await createWith(requester, idempotencyKey, json);
    expect(repeat).toMatchObject({ status: 201, raw: first.raw });
    expect(await status(requester, id)).toMatchObject({ status: 200, body: { state: 'fulfilled' } });
    expect(await claim(requester, id)).toMatchObject({ status: 200, body: { data: 'YW5zd2Vy', remaining: 0 } });
  });

  test('the same key with another body: 422, and no second request', async () => {
    const idempotencyKey = freshIdempotencyKey();
    const first = await createWith(requester, idempotencyKey, { publicKey: requestPublicKey() });
    expect(first.status).toBe(201);
    const other = await createWith(requester, idempotencyKey, { publicKey: requestPublicKey() });
    expect(other).toMatchObject({ status: 422, body: { error: ERRORS.idempotencyKeyReused } });
  });

  test('another key, or no key, makes another request', async () => {
    const json = { publicKey: requestPublicKey() };
    const a = await createWith(requester, freshIdempotencyKey(), json);
    const b = await createWith(requester, freshIdempotencyKey(), json);
    const c = await api('POST', '/requests', { key: requester, json });
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(3);
  });
});

describe('POST /requests/{id}', () => {
  test.each([
    ['an inline answer', 2_000],
    ['a chunked answer', 1_000_000],
  ])('%s: a repeat answers 201 and gives no second answer, also after it was read', async (_, bytes) => {
    const { id } = await createRequest(requester);
    const idempotencyKey = freshIdempotencyKey();
    const answer = { data: base64Of(bytes, 21) };
    const first = await fulfilWith(sender, id, answer, idempotencyKey);
    expect(first).toMatchObject({ status: 201, body: { fulfilled: true } });
    const repeat = await fulfilWith(sender, id, answer, idempotencyKey);
    expect(repeat).toMatchObject({ status: 201, raw: first.raw });

    expect(await claim(requester, id)).toMatchObject({ status: 200, body: { data: answer.data, remaining: 0 } });
    // The answer's one view is gone, and then its head (the stream consumer deletes it): the
    // repeat must neither give it back nor answer the request again.
    // Its receipt is written right after (docs/api.md): from then on the table tells no more.
    await headGoneReceiptKept(id);
    expect(await api('GET', `/secrets/${id}/status`, { key: requester })).toMatchObject({ status: 200, body: { state: 'used' } });
    expect(await fulfilWith(sender, id, answer, idempotencyKey)).toMatchObject({ status: 201, raw: first.raw });
    expect(await claim(requester, id)).toMatchObject({ status: 404 });
    expect(await itemsOfSecret(id)).toEqual([]);
  });

  test('a first that lost to another sender: its repeat is the same 409', async () => {
    const { id } = await createRequest(requester);
    expect((await fulfilWith(sender, id, { data: 'Zmlyc3Q=' }, freshIdempotencyKey())).status).toBe(201);
    const idempotencyKey = freshIdempotencyKey();
    const late = await fulfilWith(sender, id, { data: 'bGF0ZQ==' }, idempotencyKey);
    expect(late).toMatchObject({ status: 409, body: { error: ERRORS.requestFulfilled } });
    expect(await fulfilWith(sender, id, { data: 'bGF0ZQ==' }, idempotencyKey)).toMatchObject({ status: 409, raw: late.raw });
    expect(await claim(requester, id)).toMatchObject({ status: 200, body: { data: 'Zmlyc3Q=' } });
    // Once the winner's answer is read and deleted, the table cannot tell; the first's record can.
    await eventually(async () => expect(await itemsOfSecret(id)).toEqual([]), 20_000);
    expect(await fulfilWith(sender, id, { data: 'bGF0ZQ==' }, idempotencyKey)).toMatchObject({ status: 409, raw: late.raw });
  });

  test('the same key with another body: 422, and the first answer stays', async () => {
    const { id } = await createRequest(requester);
    const idempotencyKey = freshIdempotencyKey();
    expect((await fulfilWith(sender, id, { data: 'b25l' }, idempotencyKey)).status).toBe(201);
    expect(await fulfilWith(sender, id, { data: 'dHdv' }, idempotencyKey)).toMatchObject({
      status: 422,
      body: { error: ERRORS.idempotencyKeyReused },
    });
    expect(await claim(requester, id)).toMatchObject({ status: 200, body: { data: 'b25l' } });
  });

  test('a repeat whose first may still be at work, the request still open: 409 with retry-after, nothing written', async () => {
    const { id } = await createRequest(requester);
    const idempotencyKey = freshIdempotencyKey();
    const answer = { data: 'c2xvdw==' };
    await putIdempotencyRecord(sender, idempotencyScope('POST /requests/{id}', id, idempotencyKey), 0, bodyDigest(JSON.stringify(answer)));
    const repeat = await fulfilWith(sender, id, answer, idempotencyKey);
    expect(repeat).toMatchObject({ status: 409, body: { error: ERRORS.idempotencyInFlight } });
    expect(repeat.headers['retry-after']).toBe(String(IDEMPOTENCY.inFlightRetryAfterSeconds));
    expect(await status(requester, id)).toMatchObject({ status: 200, body: { state: 'open' } });
  });

  test('a repeat whose first is surely over without an answer given fulfils the request itself', async () => {
    const { id } = await createRequest(requester);
    const idempotencyKey = freshIdempotencyKey();
    const answer = { data: 'bGF0ZXI=' };
    await putIdempotencyRecord(
      sender,
      idempotencyScope('POST /requests/{id}', id, idempotencyKey),
      IDEMPOTENCY.inFlightMs + 1_000,
      bodyDigest(JSON.stringify(answer)),
    );
    expect(await fulfilWith(sender, id, answer, idempotencyKey)).toMatchObject({ status: 201 });
    expect(await claim(requester, id)).toMatchObject({ status: 200, body: { data: 'bGF0ZXI=' } });
  });
});

test('an answer carries no passphrase gate: `gate` is an unknown field, and the request stays open', async () => {
  const { id } = await createRequest(requester);
  const gated = await fulfilWith(sender, id, { data: 'YQ==', gate: 'A'.repeat(43) });
  expect(gated).toMatchObject({ status: 400, body: { error: 'unknown field: gate' } });
  expect(await status(requester, id)).toMatchObject({ status: 200, body: { state: 'open' } });
});
