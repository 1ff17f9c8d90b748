import { OnetimeClient, parseLink } from '../../client/src';
import { API_BASE_PATH } from '#contract/limits';
import { startDroppedAnswerProxy, type DroppedAnswerProxy } from '../support/dropped-answer-proxy';
import { startPagesUnderTest, type PagesUnderTest } from '../support/browser';

/**
 * The reveal page in Chromium, through a proxy that drops the claim's first answer after the
 * service has given it (a phone losing its network as the secret comes back): the page repeats
 * the claim with its Idempotency-Key, shows the secret, and exactly one view is used.
 */

let pages: PagesUnderTest;
let proxy: DroppedAnswerProxy;

beforeAll(async () => {
  pages = await startPagesUnderTest();
  proxy = await startDroppedAnswerProxy(pages.siteUrl);
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  await pages?.stop();
});

test('a reveal whose answer is lost still shows the secret, with one view used', async () => {
  const api = new OnetimeClient({ baseUrl: pages.baseUrl });
  const text = 'the answer came back the second time';
  const shared = await api.share(text, { views: 2 });
  const { id } = parseLink(shared.link);
  const linkViaProxy = `${proxy.origin}/${id}${shared.link.slice(shared.link.indexOf('#'))}`;

  const context = await pages.browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(linkViaProxy);
  proxy.dropNext((method, path) => method === 'GET' && path === `${API_BASE_PATH}/secrets/${id}`);
  await page.getByTestId('reveal-button').click();
  await page.getByTestId('secret-text').waitFor();
  await expect(page.getByTestId('secret-text').textContent()).resolves.toBe(text);
  expect(proxy.dropped).toEqual([{ method: 'GET', path: `${API_BASE_PATH}/secrets/${id}`, status: 200 }]);
  const claims = proxy.seen.filter((request) => request.method === 'GET' && request.path === `${API_BASE_PATH}/secrets/${id}`);
  expect(claims).toHaveLength(2);
  expect(claims[1]?.headers['idempotency-key']).toBe(claims[0]?.headers['idempotency-key']);
  await context.close();

  // The second view is still there: the repeat used none.
  await expect(api.reveal(shared.link)).resolves.toMatchObject({ text, remaining: 0 });
});
