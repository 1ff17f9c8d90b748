import { WEBHOOK_REQUEST_TIMEOUT_MS } from '#lambdas/definitions/webhooks';
import { createKey, createSecret } from '../support/api';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { serverWithReceiverForThisFile } from './support/server-with-receiver';

/**
 * One slow receiver must not hold up another key's webhooks. On the stack each batch of the jobs
 * queue gets an invocation of its own; local mode's delivery (local/queue-poller.ts) does the same
 * up to its bound, where it used to run four invocations, so that 40 jobs for a receiver taking
 * 12 s kept every other key's first attempt waiting for the 10 s timeouts (161 s median measured).
 */

/** More than the 4 × 10 jobs the old four delivery loops could hold, fewer than the new bound allows. */
const SLOW_EVENTS = 60;
const SLOW_RESPONSE_MS = 12_000;
const CREATES_AT_ONCE = 4;
const ARRIVAL_WAIT_MS = 30_000;

let slowReceiver: WebhookReceiver;
let healthyReceiver: WebhookReceiver;
let baseUrl: string;

// Declared before the server's hooks, so the slow receiver stops first: its held responses end,
// so the deliveries waiting on them fail at once.
beforeAll(async () => {
  slowReceiver = await startWebhookReceiver();
});
afterAll(async () => {
  await slowReceiver?.stop();
});
serverWithReceiverForThisFile(
  { keysTable: 'it-isolation-keys', secretsTable: 'it-isolation-secrets' },
  (started) => ({ receiver: healthyReceiver, baseUrl } = started),
);

/** When `path` of `receiver` received the event of a secret created now. */
async function firstAttemptAfterCreate(
  key: string,
  receiver: WebhookReceiver,
  path: string,
  count: number,
): Promise<{ createdAt: number; receivedAt: number }> {
  const createdAt = Date.now();
  await createSecret(key, { data: 'aGVhbHRoeQ==' }, baseUrl);
  const received = await receiver.waitFor(path, count, ARRIVAL_WAIT_MS);
  return { createdAt, receivedAt: received[count - 1]?.receivedAt ?? NaN };
}

test("a receiver taking 12 s per delivery does not hold up another key's first attempt", async () => {
  slowReceiver.answer('/slow', () => ({ status: 200, delayMs: SLOW_RESPONSE_MS }));
  const slow = await createKey({ webhook: slowReceiver.url('/slow') }, baseUrl);
  const healthy = await createKey({ webhook: healthyReceiver.url('/healthy') }, baseUrl);

  // The healthy receiver's normal latency, on a quiet pipeline.
  const quiet = await firstAttemptAfterCreate(healthy.key, healthyReceiver, '/healthy', 1);

  // A few at a time: the point is the deliveries in flight, not a burst on the API.
  for (let sent = 0; sent < SLOW_EVENTS; sent += CREATES_AT_ONCE) {
    await Promise.all(Array.from({ length: CREATES_AT_ONCE }, () => createSecret(slow.key, { data: 'c2xvdw==' }, baseUrl)));
  }
  // At once: the old delivery loops would all hold slow jobs now, with more of them queued ahead.
  const loaded = await firstAttemptAfterCreate(healthy.key, healthyReceiver, '/healthy', 2);
  const slowBefore = slowReceiver.received('/slow').filter((request) => request.receivedAt <= loaded.receivedAt);
  console.log(
    `healthy receiver's first attempt: ${loaded.receivedAt - loaded.createdAt} ms with ${slowBefore.length} slow deliveries ` +
      `under way, ${quiet.receivedAt - quiet.createdAt} ms on a quiet pipeline`,
  );
  // The slow receiver holds every delivery 12 s, so each one before the healthy event is still
  // waiting on it. Before, the healthy event waited for a delivery loop to come free, which takes
  // a slow attempt's whole timeout: it came after 10 s at the earliest (161 s median measured).
  expect(slowBefore.length).toBeGreaterThan(0);
  expect(loaded.receivedAt - loaded.createdAt).toBeLessThan(WEBHOOK_REQUEST_TIMEOUT_MS);
});
