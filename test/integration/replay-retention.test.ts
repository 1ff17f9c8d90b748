import { REPLAY_RETENTION_MS } from '#contract/limits';
import { SECRET_HEAD_SK } from '#lambdas/definitions/tables';
import { api, base64Of, createKey, createSecret } from '../support/api';
import { freshIdempotencyHeaders } from '../support/idempotency-key';
import { sleepUntil } from './support/sleep';
import { closeStore, itemsOfSecret } from './support/store';

/**
 * docs/security.md, "what the service keeps": the ciphertext of a last view taken with an
 * Idempotency-Key stays for the client's repeat of that claim, readable by nothing else, and
 * leaves the table REPLAY_RETENTION_MS after the view. This measures the real figure (one wait
 * of about a minute, for an inline and a chunked secret side by side) and fails if the data goes
 * before a repeat could need it, or stays more than a few seconds after.
 */

afterAll(closeStore);

const POLL_MS = 100;
/** The stream's and the queue poller's latency and SQS's whole-second delay (5.3 s measured at a load average of 30). */
const SLACK_MS = 10_000;
const REPEAT_AT_MS = REPLAY_RETENTION_MS - 8_000;

async function msUntilGone(id: string, since: number): Promise<number> {
  let left: Record<string, unknown>[] = [];
  while (Date.now() - since < REPLAY_RETENTION_MS + SLACK_MS) {
    left = await itemsOfSecret(id);
    if (left.length === 0) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  // What is left tells a deletion not yet come (no head, or a whole one) from one refused.
  const head = left.find((item) => item.sk === SECRET_HEAD_SK);
  const state = head ? `head with remaining ${String(head.remaining)}, readers ${String(head.readers)}` : 'no head';
  throw new Error(`secret still stored ${REPLAY_RETENTION_MS + SLACK_MS} ms after its last view: ${state}, ${left.length} items`);
}

async function measure(label: string, bytes: number): Promise<number> {
  const { key } = await createKey();
  const data = base64Of(bytes, 21);
  const { id } = await createSecret(key, { data });
  const headers = freshIdempotencyHeaders();
  const before = Date.now();
  const first = await api('GET', `/secrets/${id}`, { key, headers });
  expect(first.status).toBe(200);
  // The view was taken between `before` and now; counting from `before` errs long, never short.
  const lastView = before;

  await sleepUntil(lastView + REPEAT_AT_MS);
  expect((await api('GET', `/secrets/${id}`, { key })).status).toBe(404);
  const repeat = await api('GET', `/secrets/${id}`, { key, headers });
  expect(repeat.status).toBe(200);
  expect(repeat.raw).toBe(first.raw);

  const gone = await msUntilGone(id, lastView);
  console.log(`replay retention after a keyed last view, ${label}: ${gone} ms`);
  return gone;
}

test(
  'a keyed last view keeps its ciphertext for its repeat, then leaves the table about a minute after the view',
  async () => {
    const figures = await Promise.all([measure('inline 1 KB', 1_000), measure('chunked 1 MB', 1_000_000)]);
    for (const gone of figures) {
      expect(gone).toBeGreaterThanOrEqual(REPLAY_RETENTION_MS - 1_000);
      expect(gone).toBeLessThanOrEqual(REPLAY_RETENTION_MS + SLACK_MS);
    }
  },
  REPLAY_RETENTION_MS + 30_000,
);
