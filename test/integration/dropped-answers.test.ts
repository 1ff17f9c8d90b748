import { API_BASE_PATH, IDEMPOTENCY } from '#contract/limits';
import { OnetimeClient } from '#client/index';
import { api, createKey } from '../support/api';
import { startDroppedAnswerProxy, type DroppedAnswerProxy } from '../support/dropped-answer-proxy';
import { testEnv } from '../support/environment';
import { onetime } from './support/cli';
import { closeStore, itemsOfSecret } from './support/store';

/**
 * A reader whose connection drops after the service took the view still gets the secret: the
 * library and the CLI repeat the claim with the same Idempotency-Key, and the service answers the
 * repeat as it answered the lost first try. A proxy between client and service drops the first
 * answer after the service has given it (test/support/dropped-answer-proxy.ts). The reveal page
 * is proven the same way in Chromium (test/browser/dropped-answer.test.ts).
 */

let proxy: DroppedAnswerProxy;
let apiKey: string;
const isClaim = (method: string, path: string): boolean => method === 'GET' && path.startsWith(`${API_BASE_PATH}/secrets/`);
const isCreate = (method: string, path: string): boolean => method === 'POST' && path === `${API_BASE_PATH}/secrets`;
const isRevoke = (method: string, path: string): boolean => method === 'DELETE' && path.startsWith(`${API_BASE_PATH}/secrets/`);

beforeAll(async () => {
  proxy = await startDroppedAnswerProxy(new URL(testEnv('baseUrl')).origin);
  apiKey = (await createKey()).key;
});
afterAll(async () => {
  await proxy?.stop();
  closeStore();
});

const viaProxy = (): OnetimeClient => new OnetimeClient({ baseUrl: proxy.origin + API_BASE_PATH, apiKey });
const direct = (): OnetimeClient => new OnetimeClient({ baseUrl: testEnv('baseUrl'), apiKey });

/** The Idempotency-Key of every request the proxy saw that `selects`. */
const keysSent = (selects: (method: string, path: string) => boolean, since: number): unknown[] =>
  proxy.seen
    .slice(since)
    .filter((request) => selects(request.method, request.path))
    .map((request) => request.headers[IDEMPOTENCY.header.toLowerCase()]);

describe('the library', () => {
  test('a claim whose answer is lost is repeated with its key: the secret arrives, one view used', async () => {
    const shared = await direct().share('the one view', { views: 2 });
    const since = proxy.seen.length;
    proxy.dropNext(isClaim);
    const revealed = await viaProxy().reveal(shared.link);
    expect(revealed).toMatchObject({ text: 'the one view', remaining: 1 });
    expect(proxy.dropped.at(-1)).toMatchObject({ method: 'GET', status: 200 });
    const keys = keysSent(isClaim, since);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(keys[1]).toBe(keys[0]);
    expect((await itemsOfSecret(shared.id))[0]?.remaining).toBe(1);
  });

  test('the last view too', async () => {
    const shared = await direct().share('the last view');
    proxy.dropNext(isClaim);
    expect(await viaProxy().reveal(shared.link)).toMatchObject({ text: 'the last view', remaining: 0 });
    await expect(direct().reveal(shared.link)).rejects.toThrow(/gone|exist/);
  });

  test('a create whose answer is lost makes one secret, with the id the repeat answers', async () => {
    proxy.dropNext(isCreate);
    const owner = (await createKey()).key;
    const client = new OnetimeClient({ baseUrl: proxy.origin + API_BASE_PATH, apiKey: owner });
    const shared = await client.share('made once');
    expect(proxy.dropped.at(-1)).toMatchObject({ method: 'POST', status: 201 });
    expect(await direct().reveal(shared.link)).toMatchObject({ text: 'made once' });
  });

  test('a revoke whose answer is lost is done, and says so', async () => {
    const shared = await direct().share('to revoke');
    proxy.dropNext(isRevoke);
    await viaProxy().revoke(shared.link);
    expect(proxy.dropped.at(-1)).toMatchObject({ method: 'DELETE', status: 200 });
    expect(await itemsOfSecret(shared.id)).toEqual([]);
  });

  test('each call has a fresh key', async () => {
    const since = proxy.seen.length;
    const shared = await viaProxy().share('two calls');
    await viaProxy().revoke(shared.link);
    const keys = [...keysSent(isCreate, since), ...keysSent(isRevoke, since)];
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });
});

test('the CLI: a reveal whose answer is lost still prints the secret, one view used', async () => {
  const shared = await direct().share('for the terminal', { views: 2 });
  proxy.dropNext(isClaim);
  const result = await onetime(['reveal', shared.link], { apiKey, env: { ONETIME_API_URL: proxy.origin + API_BASE_PATH } });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  expect(result.stdout.toString()).toBe('for the terminal');
  expect(proxy.dropped.at(-1)).toMatchObject({ method: 'GET', status: 200 });
  expect((await itemsOfSecret(shared.id))[0]?.remaining).toBe(1);
  // Without the proxy the view the repeat did not take is still there.
  expect((await api('GET', `/secrets/${shared.id}`, { key: apiKey })).body).toMatchObject({ remaining: 0 });
});
