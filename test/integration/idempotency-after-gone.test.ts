import { IDEMPOTENCY } from '#contract/limits';
import { api, base64Of, createKey, requestPublicKey, type ApiResponse } from '../support/api';
import { serverWithReceiverForThisFile } from './support/server-with-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { freshIdempotencyHeaders } from '../support/idempotency-key';
import { sleepUntil } from './support/sleep';
import { closeStore, headGoneReceiptKept, itemsOfSecret } from './support/store';

/**
 * A keyed create's repeat after its secret is gone (docs/api.md, "Idempotent requests"): the
 * secret its first made was revoked, or its last view taken, and the stream consumer deleted its
 * head. The repeat still answers as the first did (201, the same id) and makes nothing again,
 * both while its first may still be at work and once that first is surely over; the secret stays
 * gone and its owner hears of its creation once. Secret requests alike. Runs its own local-mode
 * server, with loopback webhooks allowed and tables of its own.
 */

const SECRETS = 'ig-secrets';
const DELIVERY_WAIT_MS = 15_000;
/** After a sentinel event has arrived, how long an event queued before it may still be on its way. */
const SETTLE_MS = 500;

let receiver: WebhookReceiver;
let baseUrl: string;

serverWithReceiverForThisFile({ keysTable: 'ig-keys', secretsTable: SECRETS }, (started) => ({ receiver, baseUrl } = started));
afterAll(() => closeStore());

let paths = 0;
async function subscribedKey(): Promise<{ key: string; path: string }> {
  const path = `/owner-${++paths}`;
  const { key } = await createKey({ webhook: receiver.url(path) }, baseUrl);
  return { key, path };
}

const eventsAt = (path: string): string[] => receiver.received(path).map((request) => (JSON.parse(request.body) as { event: string }).event);

/** Everything committed so far has gone through the pipeline once an event committed now has arrived. */
async function drainPipeline(): Promise<void> {
  const sentinel = await subscribedKey();
  expect((await api('POST', '/secrets', { key: sentinel.key, json: { data: 'c2VudGluZWw=' }, baseUrl })).status).toBe(201);
  await receiver.waitFor(sentinel.path, 1, DELIVERY_WAIT_MS);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

/** Waits until the head and chunks under `id` are deleted and its receipt is written, then asks its state once. */
async function untilGone(key: string, id: string, state: string): Promise<void> {
  await headGoneReceiptKept(id, SECRETS);
  expect((await api('GET', `/secrets/${id}/status`, { key, baseUrl })).body).toMatchObject({ state });
}

/**
 * Sends the keyed create's repeat twice: right away (its first may still be at work) and once its
 * first is surely over (IDEMPOTENCY.inFlightMs after it began), when a repeat would do the work.
 */
async function repeatsOf(send: () => Promise<ApiResponse>, firstSentAt: number): Promise<ApiResponse[]> {
  const early = await send();
  await sleepUntil(firstSentAt + IDEMPOTENCY.inFlightMs + 500);
  return [early, await send()];
}

describe('POST /secrets repeated after its secret is gone: 201 with the same id, and nothing made again', () => {
  test.concurrent.each([
    ['revoked', 'revoked', (key: string, id: string) => api('DELETE', `/secrets/${id}`, { key, baseUrl })],
    ['its last view taken', 'used', (key: string, id: string) => api('GET', `/secrets/${id}`, { key, baseUrl })],
  ])('%s', async (_, state, makeGone) => {
    const owner = await subscribedKey();
    const headers = freshIdempotencyHeaders();
    const create = () => api('POST', '/secrets', { key: owner.key, json: { data: base64Of(1_000, 31) }, headers, baseUrl });
    const firstSentAt = Date.now();
    const first = await create();
    expect(first.status).toBe(201);
    const id = String(first.body.id);
    expect((await makeGone(owner.key, id)).status).toBe(200);
    await untilGone(owner.key, id, state);

    for (const repeat of await repeatsOf(create, firstSentAt)) {
      expect(repeat.status).toBe(201);
      expect(repeat.body).toEqual(first.body);
    }
    expect((await api('GET', `/secrets/${id}`, { key: owner.key, baseUrl })).status).toBe(404);
    expect(await itemsOfSecret(id, SECRETS)).toEqual([]);
    expect((await api('GET', `/secrets/${id}/status`, { key: owner.key, baseUrl })).body).toMatchObject({ state });
    await drainPipeline();
    expect(eventsAt(owner.path).filter((event) => event === 'secret.created')).toHaveLength(1);
  });
});

describe('POST /requests repeated after its answer is gone: 201 with the same id, and no request open again', () => {
  test.concurrent.each([
    ['revoked', 'revoked', (key: string, id: string) => api('DELETE', `/secrets/${id}`, { key, baseUrl })],
    ['read', 'used', (key: string, id: string) => api('GET', `/secrets/${id}`, { key, baseUrl })],
  ])('its answer %s', async (_, state, makeGone) => {
    const requester = await subscribedKey();
    const { key: sender } = await createKey(undefined, baseUrl);
    const json = { publicKey: requestPublicKey() };
    const headers = freshIdempotencyHeaders();
    const create = () => api('POST', '/requests', { key: requester.key, json, headers, baseUrl });
    const firstSentAt = Date.now();
    const first = await create();
    expect(first.status).toBe(201);
    const id = String(first.body.id);
    expect((await api('POST', `/requests/${id}`, { key: sender, json: { data: base64Of(1_000, 32) }, baseUrl })).status).toBe(201);
    expect((await makeGone(requester.key, id)).status).toBe(200);
    await untilGone(requester.key, id, state);

    for (const repeat of await repeatsOf(create, firstSentAt)) {
      expect(repeat.status).toBe(201);
      expect(repeat.body).toEqual(first.body);
    }
    // Not open again: a sender finds nothing to answer.
    expect((await api('GET', `/requests/${id}`, { key: sender, baseUrl })).status).toBe(404);
    expect(await itemsOfSecret(id, SECRETS)).toEqual([]);
    await drainPipeline();
    expect(eventsAt(requester.path).filter((event) => event === 'request.fulfilled')).toHaveLength(1);
  });
});
