import { ERRORS } from '#contract/errors';
import { CLAIMANTS_DONE_MS, IDEMPOTENCY } from '#contract/limits';
import { SECRET_ATTRIBUTES, SECRET_HEAD_SK, secretChunkKey } from '#lambdas/definitions/tables';
import { REVOKED_CHUNKS_DELETION_DELAY_MS } from '#lambdas/definitions/webhooks';
import { eventually } from '../support/eventually';
import { distinctEvents, type WebhookReceiver } from '../support/webhook-receiver';
import { api, base64Of, createKey, createRequest, createSecret, dataFilling, freshClientAddress, type ApiResponse } from '../support/api';
import type { DynamoDbCall, FaultKind, FaultProxy } from './support/fault-proxy';
import { serverBehindFaultProxyForThisFile } from './support/server-with-receiver';
import { freshIdempotencyHeaders } from '../support/idempotency-key';
import { sleepUntil } from './support/sleep';
import { closeStore, itemsOfSecret, putSecretItem, storedAddressBytes, storedKeyCreationLog, storedKeyItem } from './support/store';

/**
 * Every write of every route, and the stream consumer's, repeated by the SDK after DynamoDB
 * applied it: a fault proxy between local mode and DynamoDB Local lets the write through and
 * then answers 500, or drops the connection, instead of relaying DynamoDB's answer. Each request
 * must answer what it would have without the fault, and views, readers, chunks and webhook events
 * must end exactly as without it. This file runs its own local-mode server on the proxy, with
 * tables of its own and loopback webhooks allowed.
 */

const KEYS = 'rw-keys';
const SECRETS = 'rw-secrets';
const DELIVERY_WAIT_MS = 15_000;
/** After a sentinel event has arrived, how long an event queued before it may still be on its way. */
const SETTLE_MS = 500;
/** Data of 400,000 base64 characters: two chunk items. */
const CHUNKED_BYTES = 300_000;
const INLINE_DATA = 'aGVsbG8=';
/** More than the fan-out sends of a delete that is never answered (3 sends of 3 SDK attempts). */
const HANGING_SENDS = 100;
/** How late a deletion that is due may come: the consumed-secrets queue's poll, the stream's, a busy machine. */
const DUE_DELETION_SLACK_MS = 6_000;

let proxy: FaultProxy;
let receiver: WebhookReceiver;
let baseUrl: string;

serverBehindFaultProxyForThisFile({ keysTable: KEYS, secretsTable: SECRETS }, (started) => ({ proxy, receiver, baseUrl } = started));
afterAll(() => closeStore());

/** What the last test checks once every fault has been driven: secrets that must be gone, and each owner's events. */
const mustBeGone: string[] = [];
const expectedEvents = new Map<string, string[]>();

let owners = 0;
/** A key whose webhook is a receiver path of its own, expecting `events` for the secret it will create. */
async function owner(events: string[]): Promise<{ key: string; path: string }> {
  const path = `/owner-${++owners}`;
  const { key } = await createKey({ webhook: receiver.url(path) }, baseUrl);
  expectedEvents.set(path, events);
  return { key, path };
}

/** Arms `kind` for the write that `selects` picks (`times` in a row), runs `send`, and checks that the fault fired. */
async function withFault<T>(kind: FaultKind, selects: (call: DynamoDbCall) => boolean, send: () => Promise<T>, times = 1): Promise<T> {
  proxy.failNext(kind, selects, times);
  const result = await send();
  expect(proxy.armed()).toBe(false);
  return result;
}

const stringOf = (value: unknown): string | undefined => (value as { S?: string } | undefined)?.S;
const keyPkOf = (call: DynamoDbCall): string | undefined => stringOf((call.body.Key as Record<string, unknown> | undefined)?.pk);
const on = (operation: string, table: string) => (call: DynamoDbCall) => call.operation === operation && call.body.TableName === table;
type ChunkRequest = { PutRequest?: { Item: { pk: { S: string } } }; DeleteRequest?: { Key: { pk: { S: string } } } };
/** A BatchWriteItem that writes (PutRequest) or deletes (DeleteRequest) chunks of `id`, or of any secret. */
const chunkBatch = (kind: keyof ChunkRequest, id?: string) => (call: DynamoDbCall) => {
  if (call.operation !== 'BatchWriteItem') return false;
  const requests = (call.body.RequestItems as Record<string, ChunkRequest[]>)[SECRETS] ?? [];
  const pks = requests.map((request) => (request.PutRequest?.Item ?? request.DeleteRequest?.Key)?.pk.S ?? '');
  return (
    requests.length > 0 &&
    requests.every((request) => request[kind] !== undefined) &&
    (id === undefined || pks.every((pk) => pk.startsWith(`${id}#`)))
  );
};

/** A chunked claim's reader sign-off on `id`: the head update that counts `readers` down. */
const readerSignOff = (id: string) => (call: DynamoDbCall) =>
  on('UpdateItem', SECRETS)(call) && keyPkOf(call) === id && String(call.body.UpdateExpression).includes(':minusOne');

const claim = (key: string, id: string, headers?: Record<string, string>): Promise<ApiResponse> =>
  api('GET', `/secrets/${id}`, { key, ...(headers ? { headers } : {}), baseUrl });
const headOf = async (id: string): Promise<Record<string, unknown> | undefined> =>
  (await itemsOfSecret(id, SECRETS)).find((item) => item.sk === SECRET_HEAD_SK);

/**
 * A chunked secret of `key`'s, claimed while every send of its reader's sign-off fails: `readers`
 * stays at 1 for good, and only the stream consumer's deletion from the last view can remove it.
 */
async function claimedWithoutSignOff(key: string, data: string): Promise<{ id: string; viewed: number; response: ApiResponse }> {
  const { id } = await createSecret(key, { data }, baseUrl);
  proxy.failNext('unapplied', readerSignOff(id), Number.POSITIVE_INFINITY);
  const viewed = Date.now();
  const response = await claim(key, id);
  proxy.disarm();
  return { id, viewed, response };
}

describe.each<FaultKind>(['500', 'reset'])('the answer to the write is lost (%s) after DynamoDB applied it', (kind) => {
  describe('POST /keys', () => {
    test('the attempt log: 201, and the attempt is logged once', async () => {
      const from = freshClientAddress();
      const response = await withFault(
        kind,
        (call) => on('UpdateItem', KEYS)(call) && keyPkOf(call)?.startsWith('ip#') === true,
        () => api('POST', '/keys', { localAddress: from, baseUrl }),
      );
      expect(response.status).toBe(201);
      expect((await storedKeyCreationLog(from, KEYS))?.log).toHaveLength(1);
    });

    test('the key: 201, and the key it answers works', async () => {
      const response = await withFault(kind, on('PutItem', KEYS), () => api('POST', '/keys', { localAddress: freshClientAddress(), baseUrl }));
      expect(response.status).toBe(201);
      const key = String(response.body.key);
      expect((await api('GET', '/keys', { key, baseUrl })).status).toBe(200);
    });
  });

  describe('every authenticated route', () => {
    /** Sends `method path` with `key`, the answer to its rate-limit count lost. */
    const countLost = async (key: string, method: 'GET' | 'POST', path: string): Promise<ApiResponse> => {
      const keyPk = (await storedKeyItem(key, KEYS))?.pk;
      return withFault(
        kind,
        (call) => on('UpdateItem', KEYS)(call) && keyPkOf(call) === keyPk,
        () => api(method, path, { key, baseUrl }),
      );
    };

    test('the rate-limit count: the request is counted once, and its headers say so', async () => {
      const { key } = await createKey(undefined, baseUrl);
      const first = await countLost(key, 'GET', '/keys');
      expect(first.status).toBe(200);
      expect(first.headers['x-ratelimit-remaining']).toBe('99');
      expect((await api('GET', '/keys', { key, baseUrl })).headers['x-ratelimit-remaining']).toBe('98');
      const slots = (await storedKeyItem(key, KEYS))?.rl as Record<string, number>;
      expect(Object.values(slots).reduce((sum, count) => sum + count, 0)).toBe(2);
    });

    test('POST /keys/webhook/test: 202, and one webhook.test event', async () => {
      const { key } = await owner(['webhook.test']);
      expect((await countLost(key, 'POST', '/keys/webhook/test')).status).toBe(202);
    });
  });

  describe("POST /secrets and POST /requests/:id above 300 KB: the address's byte count", () => {
    const addressCount = (call: DynamoDbCall) => on('UpdateItem', KEYS)(call) && keyPkOf(call)?.startsWith('bytes#') === true;
    const LARGE_BODY = 400_000;

    // Once: the SDK's repeat finds its own token. Three times: the SDK gives up, and the settling read finds it.
    test.each([1, 3])('lost %i time(s): 201, and the bytes are counted once', async (times) => {
      const from = freshClientAddress();
      const { key } = await createKey(undefined, baseUrl);
      const body = { data: dataFilling(LARGE_BODY) };
      const created = await withFault(kind, addressCount, () => api('POST', '/secrets', { key, json: body, localAddress: from, baseUrl }), times);
      expect(created.status).toBe(201);
      expect(await storedAddressBytes(from, KEYS)).toBe(Buffer.byteLength(JSON.stringify(body)));

      const { id } = await createRequest((await createKey(undefined, baseUrl)).key, {}, baseUrl);
      const answered = await withFault(
        kind,
        addressCount,
        () => api('POST', `/requests/${id}`, { key, json: body, localAddress: from, baseUrl }),
        times,
      );
      expect(answered.status).toBe(201);
      expect(await storedAddressBytes(from, KEYS)).toBe(2 * Buffer.byteLength(JSON.stringify(body)));
    });
  });

  describe('PATCH /keys and DELETE /keys', () => {
    test('the webhook update: 200, and the webhook is set', async () => {
      const { key } = await createKey(undefined, baseUrl);
      const webhook = receiver.url('/patched');
      const response = await withFault(
        kind,
        (call) => on('UpdateItem', KEYS)(call) && String(call.body.UpdateExpression).includes('webhook'),
        () => api('PATCH', '/keys', { key, json: { webhook }, baseUrl }),
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ updated: true });
      expect((await storedKeyItem(key, KEYS))?.webhook).toBe(webhook);
    });

    test('the key deletion: 200 {deleted: true}, and the key is revoked', async () => {
      const { key } = await createKey(undefined, baseUrl);
      const response = await withFault(kind, on('DeleteItem', KEYS), () => api('DELETE', '/keys', { key, baseUrl }));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ deleted: true });
      expect((await api('GET', '/keys', { key, baseUrl })).body).toEqual({ error: ERRORS.invalidApiKey });
    });
  });

  describe('POST /secrets', () => {
    test('an inline head: 201, one secret, one secret.created', async () => {
      const { key } = await owner(['secret.created']);
      const response = await withFault(kind, on('PutItem', SECRETS), () => api('POST', '/secrets', { key, json: { data: INLINE_DATA }, baseUrl }));
      expect(response.status).toBe(201);
      expect(await headOf(String(response.body.id))).toMatchObject({ remaining: 1, data: expect.anything() });
    });

    test.each([
      ['its chunks', chunkBatch('PutRequest')],
      ['its head', on('PutItem', SECRETS)],
    ])('a chunked secret, %s: 201, and the secret it answers is whole', async (_, selects) => {
      const { key } = await owner(['secret.created', 'secret.expired']);
      const data = base64Of(CHUNKED_BYTES, 21);
      const response = await withFault(kind, selects, () => api('POST', '/secrets', { key, json: { data }, baseUrl }));
      expect(response.status).toBe(201);
      const id = String(response.body.id);
      expect(await itemsOfSecret(id, SECRETS)).toHaveLength(3);
      expect((await claim(key, id)).body.data === data).toBe(true);
      mustBeGone.push(id);
    });
  });

  describe('GET /secrets/:id', () => {
    test('the claim of a 1-view secret: 200 with the data, and then it is gone', async () => {
      const { key } = await owner(['secret.created', 'secret.expired']);
      const { id } = await createSecret(key, { data: INLINE_DATA }, baseUrl);
      const response = await withFault(
        kind,
        (call) => on('UpdateItem', SECRETS)(call) && keyPkOf(call) === id,
        () => claim(key, id),
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ data: INLINE_DATA, remaining: 0 });
      expect((await claim(key, id)).status).toBe(404);
      mustBeGone.push(id);
    });

    test('the claim of a 3-view secret takes one view, and one secret.viewed', async () => {
      const { key } = await owner(['secret.created', 'secret.viewed']);
      const { id } = await createSecret(key, { data: INLINE_DATA, views: 3 }, baseUrl);
      const response = await withFault(
        kind,
        (call) => on('UpdateItem', SECRETS)(call) && keyPkOf(call) === id,
        () => claim(key, id),
      );
      expect(response.body).toMatchObject({ data: INLINE_DATA, remaining: 2 });
      expect(await headOf(id)).toMatchObject({ remaining: 2 });
    });

    test('the claim of a chunked 1-view secret: 200 with the data, and then head and chunks are gone', async () => {
      const { key } = await owner(['secret.created', 'secret.expired']);
      const data = base64Of(CHUNKED_BYTES, 22);
      const { id } = await createSecret(key, { data }, baseUrl);
      const response = await withFault(
        kind,
        (call) => on('UpdateItem', SECRETS)(call) && keyPkOf(call) === id,
        () => claim(key, id),
      );
      expect(response.body.data === data).toBe(true);
      expect(response.body.remaining).toBe(0);
      mustBeGone.push(id);
    });

    test('a chunked claim signing off as reader: readers back to 0, never below, and the views left stay', async () => {
      const { key } = await owner(['secret.created', 'secret.viewed']);
      const data = base64Of(CHUNKED_BYTES, 23);
      const { id } = await createSecret(key, { data, views: 2 }, baseUrl);
      const response = await withFault(kind, readerSignOff(id), () => claim(key, id));
      expect(response.body.data === data).toBe(true);
      expect(response.body.remaining).toBe(1);
      const items = await itemsOfSecret(id, SECRETS);
      expect(items).toHaveLength(3);
      expect(items[0]).toMatchObject({ remaining: 1, readers: 0 });
    });
  });

  describe('DELETE /secrets/:id', () => {
    test('an inline secret: 200 {deleted: true}, and it is gone', async () => {
      const { key } = await owner(['secret.created']);
      const { id } = await createSecret(key, { data: INLINE_DATA, views: 2 }, baseUrl);
      const response = await withFault(kind, on('DeleteItem', SECRETS), () => api('DELETE', `/secrets/${id}`, { key, baseUrl }));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ deleted: true });
      expect(await itemsOfSecret(id, SECRETS)).toEqual([]);
    });

    test.each([
      ['its head', (_id: string) => on('DeleteItem', SECRETS)],
      ['its chunks', (id: string) => chunkBatch('DeleteRequest', id)],
    ])('a chunked secret, %s: 200 {deleted: true}, and head and chunks are gone', async (_, selector) => {
      const { key } = await owner(['secret.created']);
      const { id } = await createSecret(key, { data: base64Of(CHUNKED_BYTES, 24), views: 2 }, baseUrl);
      const response = await withFault(kind, selector(id), () => api('DELETE', `/secrets/${id}`, { key, baseUrl }));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ deleted: true });
      expect(await itemsOfSecret(id, SECRETS)).toEqual([]);
    });

    test("a request's chunked answer, its head: 200 {deleted: true}, and head and chunks are gone", async () => {
      const { key: requester } = await createKey(undefined, baseUrl);
      const { key: sender } = await createKey(undefined, baseUrl);
      const { id } = await createRequest(requester, {}, baseUrl);
      expect((await api('POST', `/requests/${id}`, { key: sender, json: { data: base64Of(CHUNKED_BYTES, 26) }, baseUrl })).status).toBe(201);
      // An answer's chunks are stored under an id that only its head names.
      const chunkId = String((await headOf(id))?.chunkId);
      expect(await itemsOfSecret(chunkId, SECRETS)).toHaveLength(2);
      const headDeletion = (call: DynamoDbCall) => on('DeleteItem', SECRETS)(call) && keyPkOf(call) === id;
      const response = await withFault(kind, headDeletion, () => api('DELETE', `/secrets/${id}`, { key: requester, baseUrl }));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ deleted: true });
      expect(await itemsOfSecret(id, SECRETS)).toEqual([]);
      await eventually(async () => expect(await itemsOfSecret(chunkId, SECRETS)).toEqual([]), DELIVERY_WAIT_MS);
    });
  });

  describe('the stream consumer deleting a consumed chunked secret', () => {
    test.each([
      ['its head', (id: string) => (call: DynamoDbCall) => on('DeleteItem', SECRETS)(call) && keyPkOf(call) === id],
      ['its chunks', (id: string) => chunkBatch('DeleteRequest', id)],
    ])('%s: head and chunks are gone', async (_, selector) => {
      const { key } = await owner(['secret.created', 'secret.expired']);
      const data = base64Of(CHUNKED_BYTES, 25);
      const { id } = await createSecret(key, { data }, baseUrl);
      proxy.failNext(kind, selector(id));
      expect((await claim(key, id)).body.data === data).toBe(true);
      await eventually(() => expect(proxy.armed()).toBe(false), DELIVERY_WAIT_MS);
      mustBeGone.push(id);
    });
  });
});

/**
 * Selectors of the head puts of creates (not their undo's, which marks the head `undoneAt`) and
 * of the settling reads of the head last picked, and that head's id.
 */
function createdHeads(): { selects: (call: DynamoDbCall) => boolean; settlingReads: (call: DynamoDbCall) => boolean; id: () => string | undefined } {
  let id: string | undefined;
  const selects = (call: DynamoDbCall): boolean => {
    const item = call.body.Item as Record<string, unknown> | undefined;
    if (!on('PutItem', SECRETS)(call) || stringOf(item?.sk) !== SECRET_HEAD_SK || item?.[SECRET_ATTRIBUTES.undoneAt] !== undefined) return false;
    id = stringOf(item?.pk);
    return true;
  };
  const settlingReads = (call: DynamoDbCall): boolean =>
    on('GetItem', SECRETS)(call) &&
    id !== undefined &&
    keyPkOf(call) === id &&
    stringOf((call.body.Key as Record<string, unknown>).sk) === SECRET_HEAD_SK;
  return { selects, settlingReads, id: () => id };
}

/** A fresh key and a keyed create of `data` by it, to send and repeat, with its heads' selectors. */
async function keyedCreate(data: string): Promise<ReturnType<typeof createdHeads> & { key: string; send: () => Promise<ApiResponse> }> {
  const { key } = await createKey(undefined, baseUrl);
  const headers = freshIdempotencyHeaders();
  return { key, ...createdHeads(), send: () => api('POST', '/secrets', { key, json: { data }, headers, baseUrl }) };
}

/** Releasing an Idempotency-Key record (a create that answered an error): left undone, its repeat is told the same id. */
const recordRelease = (call: DynamoDbCall): boolean =>
  on('UpdateItem', KEYS)(call) && (keyPkOf(call) ?? '').startsWith('idem#') && String(call.body.UpdateExpression).startsWith('REMOVE');

test('a create whose head write and settling read fail on every attempt: 503, and it deletes the head and chunks it wrote', async () => {
  // No webhook: the head the failed attempts wrote is seen by the stream before the undo.
  const { key } = await createKey(undefined, baseUrl);
  const { selects: head, settlingReads, id: idOfHead } = createdHeads();
  // Every attempt is applied and answered 500, and so is every attempt of the read that would
  // have found it applied, however many the SDK and the store make (fewer when its retry quota or
  // the time budget runs out, more sends when a read fails): the store never says, the route
  // answers 503, and the create undoes what the attempts wrote (store/secret-store.ts,
  // undoCreate). The read is picked by its key: the stream consumer's reads of earlier tests'
  // secrets must not take its faults.
  proxy.failNext('500', head, Number.POSITIVE_INFINITY);
  proxy.failNext('500', settlingReads, Number.POSITIVE_INFINITY);
  const response = await api('POST', '/secrets', { key, json: { data: base64Of(CHUNKED_BYTES, 26) }, baseUrl });
  proxy.disarm();
  expect(response.status).toBe(503);
  expect(response.body).toEqual({ error: ERRORS.storeUnavailable });
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  expect(idOfHead()).toBeDefined();
  expect(await itemsOfSecret(idOfHead() ?? '', SECRETS)).toEqual([]);
});

test('a keyed create undone after its head was written, whose record could not be released: no receipt, and its repeat makes the secret', async () => {
  const data = base64Of(1_000, 28);
  const { key, selects: head, settlingReads, id: idOfHead, send } = await keyedCreate(data);
  // As the test above: the head is written and every answer and settling read is lost, so the
  // create undoes its head and answers 503. Releasing its Idempotency-Key record fails too (a
  // store that does not answer), so the repeat is told from the record the same id to make.
  proxy.failNext('500', head, Number.POSITIVE_INFINITY);
  proxy.failNext('500', settlingReads, Number.POSITIVE_INFINITY);
  proxy.failNext('unapplied', recordRelease, Number.POSITIVE_INFINITY);
  const firstSentAt = Date.now();
  const first = await send();
  proxy.disarm();
  expect(first.status).toBe(503);
  const id = idOfHead() ?? '';
  expect(await itemsOfSecret(id, SECRETS)).toEqual([]);
  // Its first may still be at work: 409. Once it is surely over, the repeat finds no secret and
  // no receipt (the stream consumer has long seen the head go), and makes it under the same id.
  expect((await send()).status).toBe(409);
  await sleepUntil(firstSentAt + IDEMPOTENCY.inFlightMs + 500);
  expect((await api('GET', `/secrets/${id}/status`, { key, baseUrl })).status).toBe(404);
  const repeat = await send();
  expect({ status: repeat.status, id: repeat.body.id }).toEqual({ status: 201, id });
  const claimed = await claim(key, id);
  expect({ status: claimed.status, whole: claimed.body.data === data }).toEqual({ status: 200, whole: true });
});

test("a keyed create's repeat answered while its first was failing: the first does not undo the secret the repeat named", async () => {
  const data = base64Of(CHUNKED_BYTES, 29);
  const { key, selects: head, settlingReads, id: idOfHead, send } = await keyedCreate(data);
  // The first's head is written and every answer to it is lost. Its first settling read gets no
  // answer at all (the SDK waits its 2 s request timeout), the later ones a 500: the first is at
  // work for seconds with its head in the table, then answers 503 and undoes what it wrote.
  proxy.failNext('500', head, Number.POSITIVE_INFINITY);
  proxy.failNext('silence', settlingReads, 1);
  proxy.failNext('500', settlingReads, Number.POSITIVE_INFINITY);
  const first = send();
  await eventually(async () => expect((await itemsOfSecret(idOfHead() ?? '', SECRETS)).map((item) => item.sk)).toContain(SECRET_HEAD_SK));
  // The client's retry comes in that moment and is answered from the head it finds.
  const repeat = await send();
  const firstAnswer = await first;
  proxy.disarm();
  expect({ first: firstAnswer.status, repeat: repeat.status, id: repeat.body.id }).toEqual({ first: 503, repeat: 201, id: idOfHead() });
  const claimed = await claim(key, idOfHead() ?? '');
  expect({ status: claimed.status, whole: claimed.body.data === data }).toEqual({ status: 200, whole: true });
});

test('a keyed create whose undo marked its head but could not delete it: its repeat answers 409 while the first may be at work, then takes the head back', async () => {
  const data = base64Of(CHUNKED_BYTES, 30);
  const { key, selects: head, settlingReads, id: idOfHead, send } = await keyedCreate(data);
  // As the test above, but the undo's deletion of the head it has marked `undoneAt` never
  // applies either: the head stays, marked. The Idempotency-Key record stays too.
  proxy.failNext('500', head, Number.POSITIVE_INFINITY);
  proxy.failNext('500', settlingReads, Number.POSITIVE_INFINITY);
  proxy.failNext('unapplied', (call) => on('DeleteItem', SECRETS)(call) && keyPkOf(call) === idOfHead(), Number.POSITIVE_INFINITY);
  proxy.failNext('unapplied', recordRelease, Number.POSITIVE_INFINITY);
  const firstSentAt = Date.now();
  const first = await send();
  proxy.disarm();
  const id = idOfHead() ?? '';
  const [marked] = await itemsOfSecret(id, SECRETS);
  expect({ first: first.status, marked: marked?.[SECRET_ATTRIBUTES.undoneAt] !== undefined }).toEqual({ first: 503, marked: true });
  // A head being undone is not answered with while its first may still delete it.
  expect((await send()).status).toBe(409);
  // Once the first is surely over, nothing will delete it: the head is whole, and the repeat
  // answers with it.
  await sleepUntil(firstSentAt + IDEMPOTENCY.inFlightMs + 500);
  const repeat = await send();
  expect({ status: repeat.status, id: repeat.body.id }).toEqual({ status: 201, id });
  const claimed = await claim(key, id);
  expect({ status: claimed.status, whole: claimed.body.data === data }).toEqual({ status: 200, whole: true });
});

test('a chunked claim whose sign-off never applies: 200 with the data, and head and chunks go once the claim has surely ended', async () => {
  // No webhook: the stream consumer's own deletes are what this test waits for.
  const { key } = await createKey(undefined, baseUrl);
  const data = base64Of(CHUNKED_BYTES, 28);
  const { id, viewed, response } = await claimedWithoutSignOff(key, data);
  const head = await headOf(id);
  expect({ status: response.status, whole: response.body.data === data, head }).toMatchObject({
    status: 200,
    whole: true,
    head: { remaining: 0, readers: 1 },
  });
  await eventually(async () => expect(await itemsOfSecret(id, SECRETS)).toEqual([]), viewed + CLAIMANTS_DONE_MS + DELIVERY_WAIT_MS - Date.now());
});

test("a consumed secret's deletion that DynamoDB never answers holds up no other secret's", async () => {
  // No webhook: the stream consumer's own deletes are what this test waits for.
  const { key } = await createKey(undefined, baseUrl);
  // Each is deleted by the fan-out through the consumed-secrets queue.
  const stuck = await claimedWithoutSignOff(key, base64Of(CHUNKED_BYTES, 29));
  // Due a few seconds later, so that its message comes in a batch of its own, while the first's hangs.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const other = await claimedWithoutSignOff(key, base64Of(CHUNKED_BYTES, 30));
  expect([stuck.response.status, other.response.status]).toEqual([200, 200]);
  // Every send of the first's head delete waits out the SDK's request timeout: about 18 s of one invocation.
  const headDelete = (call: DynamoDbCall): boolean => on('DeleteItem', SECRETS)(call) && keyPkOf(call) === stuck.id;
  proxy.failNext('hang', headDelete, HANGING_SENDS);
  // Due at CLAIMANTS_DONE_MS, rounded up to SQS's whole seconds; on the stack its batch gets an
  // invocation of its own. Before, local mode ran one deletion at a time, so this one waited until
  // the hanging one gave up, about 18 s after it began.
  await eventually(
    async () => expect(await itemsOfSecret(other.id, SECRETS)).toEqual([]),
    other.viewed + CLAIMANTS_DONE_MS + 1_000 + DUE_DELETION_SLACK_MS - Date.now(),
  );
  const hangsLeft = proxy.disarm();
  // Its own deletion was under way, and had not applied: its message comes back after the queue's visibility timeout.
  expect({ hung: hangsLeft < HANGING_SENDS, stuckHead: (await headOf(stuck.id)) !== undefined }).toEqual({ hung: true, stuckHead: true });
});

test('a revoke whose chunk deletes never apply: 200, and the stream consumer deletes the chunks later, unless the id has a head again, even a used-up one', async () => {
  // No webhook: the stream consumer's own deletes are what this test waits for.
  const { key } = await createKey(undefined, baseUrl);
  const data = base64Of(CHUNKED_BYTES, 27);
  /** Revoked while every send of its chunk deletes fails unapplied: the head goes, the chunks stay. */
  const revokedWithChunksLeft = async (): Promise<{ id: string; head: Record<string, unknown> | undefined }> => {
    const { id } = await createSecret(key, { data }, baseUrl);
    const [head] = await itemsOfSecret(id, SECRETS);
    proxy.failNext('unapplied', chunkBatch('DeleteRequest', id), Number.POSITIVE_INFINITY);
    const response = await api('DELETE', `/secrets/${id}`, { key, baseUrl });
    const left = await itemsOfSecret(id, SECRETS);
    // The stream consumer's deletes fail too until now; it retries the record after this.
    proxy.disarm();
    expect({ status: response.status, body: response.body, left: left.map((item) => item.sk) }).toEqual({
      status: 200,
      body: { deleted: true },
      left: [0, 1].map((index) => secretChunkKey(id, index).sk),
    });
    return { id, head };
  };
  // Its head written again, as a keyed create's repeat that began before the revocation may, and
  // its only view taken by a keyed claim: the consumer's later delete must leave head and chunks
  // to it, so that the claim's repeat still finds them.
  const madeAgain = await revokedWithChunksLeft();
  await putSecretItem(madeAgain.head ?? {}, SECRETS);
  const claimHeaders = freshIdempotencyHeaders();
  const keyedClaim = (): Promise<ApiResponse> => claim(key, madeAgain.id, claimHeaders);
  const claimed = await keyedClaim();
  const revoked = await revokedWithChunksLeft();
  // madeAgain's delayed delete was sent first, so it has come and gone once revoked's chunks are gone.
  await eventually(async () => expect(await itemsOfSecret(revoked.id, SECRETS)).toEqual([]), REVOKED_CHUNKS_DELETION_DELAY_MS + DELIVERY_WAIT_MS);
  const repeated = await keyedClaim();
  expect([claimed, repeated].map((response) => ({ status: response.status, whole: response.body.data === data }))).toEqual([
    { status: 200, whole: true },
    { status: 200, whole: true },
  ]);
  // Not in mustBeGone: a keyed last view is deleted REPLAY_RETENTION_MS after it (replay-retention.test.ts).
});

test('a 1-view claim whose answer never comes: the SDK repeats it after its request timeout, and the data is still there', async () => {
  const { key } = await owner(['secret.created', 'secret.expired']);
  const { id } = await createSecret(key, { data: INLINE_DATA }, baseUrl);
  // The repeat comes 2 s later (store/sdk-settings.ts), long after the stream consumer has seen the
  // last view: it finds the data only because an inline secret outlives its claim's retry window.
  const response = await withFault(
    'silence',
    (call) => on('UpdateItem', SECRETS)(call) && keyPkOf(call) === id,
    () => claim(key, id),
  );
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ data: INLINE_DATA, remaining: 0 });
  mustBeGone.push(id);
});

test('POST /keys/webhook/test whose count applied but none of its attempts was answered: the settling read finds it, 202', async () => {
  const { key } = await owner(['webhook.test']);
  const keyPk = (await storedKeyItem(key, KEYS))?.pk;
  proxy.failNext('silence', (call) => on('UpdateItem', KEYS)(call) && keyPkOf(call) === keyPk, Number.POSITIVE_INFINITY);
  const sent = await api('POST', '/keys/webhook/test', { key, baseUrl });
  proxy.disarm();
  expect(sent.status).toBe(202);
});

test('a keyed claim whose view is taken but whose answers all come too late: 503, and its repeat with the same Idempotency-Key answers the data', async () => {
  const { key } = await createKey(undefined, baseUrl);
  const { id } = await createSecret(key, { data: INLINE_DATA }, baseUrl);
  const headers = freshIdempotencyHeaders();
  const send = (): Promise<ApiResponse> => claim(key, id, headers);
  // The update applies and none of its attempts is answered, nor is the settling read: the claim
  // cannot learn within its retry window that it took the view.
  proxy.failNext('silence', (call) => on('UpdateItem', SECRETS)(call) && keyPkOf(call) === id, Number.POSITIVE_INFINITY);
  proxy.failNext('hang', (call) => on('GetItem', SECRETS)(call) && keyPkOf(call) === id, Number.POSITIVE_INFINITY);
  const first = await send();
  proxy.disarm();
  const head = await headOf(id);
  const repeated = await send();
  expect({
    first: { status: first.status, body: first.body },
    taken: head?.remaining,
    repeated: { status: repeated.status, whole: repeated.body.data === INLINE_DATA, remaining: repeated.body.remaining },
  }).toEqual({
    first: { status: 503, body: { error: ERRORS.storeUnavailable } },
    taken: 0,
    repeated: { status: 200, whole: true, remaining: 0 },
  });
  // Not in mustBeGone: a keyed last view is deleted REPLAY_RETENTION_MS after it (replay-retention.test.ts).
});

/**
 * Proves that the pipeline has processed everything committed so far: an event of another key,
 * committed now, arrives only after the stream records before it went through the fan-out.
 */
async function drainPipeline(): Promise<void> {
  const sentinel = await createKey({ webhook: receiver.url('/sentinel') }, baseUrl);
  await createSecret(sentinel.key, { data: 'c2VudGluZWw=' }, baseUrl);
  await receiver.waitFor('/sentinel', 1, DELIVERY_WAIT_MS);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

// Runs after the faults above, in file order: what they leave behind settles off the request path.
test('afterwards: consumed secrets are gone, head and chunks, and each secret sent each of its events, one per event id', async () => {
  expect(mustBeGone).toHaveLength(13);
  // An inline secret waits out its last claim's retry window (about 4 s) before the consumer deletes it.
  await Promise.all(mustBeGone.map((id) => eventually(async () => expect(await itemsOfSecret(id, SECRETS)).toEqual([]), 20_000)));
  await Promise.all([...expectedEvents].map(([path, events]) => receiver.waitFor(path, events.length, DELIVERY_WAIT_MS)));
  await drainPipeline();
  const sent = Object.fromEntries([...expectedEvents.keys()].map((path) => [path, distinctEvents(receiver.received(path))]));
  expect(sent).toEqual(Object.fromEntries([...expectedEvents].map(([path, events]) => [path, [...events].sort()])));
});
