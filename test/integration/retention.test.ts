import { api, base64Of, createKey, createSecret } from '../support/api';
import { closeStore, itemsOfSecret } from './support/store';

/**
 * docs/security.md, "what the service keeps": after the last view no request can read a secret,
 * and its ciphertext leaves the table once the stream consumer has seen that view (an inline
 * secret's after the last claim's retry window, docs/decisions/consumed-secrets.md). This
 * measures how long that takes in local mode and fails if the ciphertext stays.
 */

afterAll(closeStore);

const POLL_MS = 20;
const GIVE_UP_MS = 15_000;

/** Milliseconds from `since` until the secret has no item left in the table. */
async function msUntilGone(id: string, since: number): Promise<number> {
  while (Date.now() - since < GIVE_UP_MS) {
    if ((await itemsOfSecret(id)).length === 0) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`secret still stored ${GIVE_UP_MS} ms after its last view`);
}

test.each([
  ['an inline 1 KB secret', 1_000],
  ['a chunked 1 MB secret', 1_000_000],
])('%s leaves the table after its last view', async (label, bytes) => {
  const { key } = await createKey();
  const { id } = await createSecret(key, { data: base64Of(bytes, 5) });
  expect((await itemsOfSecret(id)).length).toBeGreaterThan(0);
  const claimed = await api('GET', `/secrets/${id}`, { key });
  const lastView = Date.now();
  expect(claimed.status).toBe(200);
  const delay = await msUntilGone(id, lastView);
  console.log(`retention after the last view, ${label}: ${delay} ms`);
});

test('a revoked secret leaves the table with the revocation itself', async () => {
  const { key } = await createKey();
  const { id } = await createSecret(key, { data: base64Of(1_000_000, 6) });
  expect((await api('DELETE', `/secrets/${id}`, { key })).status).toBe(200);
  expect(await itemsOfSecret(id)).toEqual([]);
});
