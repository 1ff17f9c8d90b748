import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { OnetimeClient, makeLink, parseLink } from '../../client/src';
import { startPagesUnderTest, type PagesUnderTest } from '../support/browser';

/**
 * The share and reveal pages (docs/client.md §4) in Chromium, against local mode: what a sender and a
 * recipient see, and what link previews and page loads must not do (use up a view).
 */

let pages: PagesUnderTest;

beforeAll(async () => {
  pages = await startPagesUnderTest();
  // A fresh DynamoDB Local JVM compiles its code on its first large writes (the bench warms it up
  // for a minute): on a busy machine its first 3 MB batch can outlast the functions' 2 s DynamoDB
  // request timeout. One large secret first, whatever its outcome, keeps that out of the tests.
  await api()
    .share({ name: 'warm-up', bytes: new Uint8Array(3_000_000) })
    .catch(() => undefined);
}, 180_000);

afterAll(async () => {
  await pages?.stop();
});

const api = (): OnetimeClient => new OnetimeClient({ baseUrl: pages.baseUrl });

async function shareInPage(context: BrowserContext, fill: (page: Page) => Promise<void>): Promise<string> {
  const page = await context.newPage();
  await page.goto(`${pages.siteUrl}/`);
  await fill(page);
  await page.getByTestId('share-submit').click();
  const link = page.getByTestId('share-link');
  // The error, if the page shows one, makes a clearer failure than the link's absence.
  await Promise.race([
    link.waitFor(),
    page
      .getByTestId('error')
      .waitFor()
      .then(async () => {
        throw new Error(`the share page said: ${await page.getByTestId('error').textContent()}`);
      }),
  ]);
  return link.inputValue();
}

async function openAndReveal(context: BrowserContext, link: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(link);
  await page.getByTestId('reveal-button').click();
  return page;
}

const LINK_PATTERN = /^(http:\/\/localhost:\d+)\/([A-Za-z0-9_-]{22})#([A-Za-z0-9_-]{43})$/;

test('the share page carries the security headers, and every control has a label', async () => {
  const context = await pages.person();
  const page = await context.newPage();
  const response = await page.goto(`${pages.siteUrl}/`);
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).not.toMatch(/unsafe-(inline|eval)/);
  expect(headers).toMatchObject({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' });
  // Runs in the page; the tests are typed without the DOM, hence the structural type.
  const unlabelled = await page.$$eval('input, select, textarea', (controls: { id: string; labels: ArrayLike<unknown> }[]) =>
    controls.filter((control) => control.labels.length === 0).map((control) => control.id),
  );
  expect(unlabelled).toEqual([]);
  await context.close();
});

test('text shared in the page opens in another browser, and only a click on Reveal uses a view', async () => {
  const text = 'correct horse battery staple\n  ünïcødé ✓\n\n';
  const sender = await pages.person();
  const link = await shareInPage(sender, async (page) => {
    await page.getByTestId('share-text').fill(text);
    await page.getByTestId('share-ttl').selectOption('1h');
    await page.getByTestId('share-views').selectOption('2');
  });
  const [, origin, id] = LINK_PATTERN.exec(link) ?? [];
  expect(origin).toBe(pages.siteUrl);

  // Link previews fetch the page itself: it is the same HTML for every secret, and sends nothing.
  for (const userAgent of ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'facebookexternalhit/1.1']) {
    const preview = await fetch(`${pages.siteUrl}/${id}`, { headers: { 'user-agent': userAgent } });
    expect(preview.status).toBe(200);
    expect(await preview.text()).not.toContain('correct horse');
  }
  // A person opening the link, without clicking.
  const recipient = await pages.person();
  const loaded = await recipient.newPage();
  await loaded.goto(link);
  await expect(loaded.getByTestId('reveal-button').isVisible()).resolves.toBe(true);
  await loaded.close();

  // Both views are still there: the API's claim takes the first and leaves one.
  await expect(api().reveal(link)).resolves.toEqual({ type: 'text', text, remaining: 1 });

  const page = await openAndReveal(recipient, link);
  await page.getByTestId('secret-text').waitFor();
  await expect(page.getByTestId('secret-text').textContent()).resolves.toBe(text);
  await expect(page.getByText('That was its last view').isVisible()).resolves.toBe(true);
  // The key has done its work and leaves the address bar.
  expect(page.url()).toBe(`${pages.siteUrl}/${id}`);

  const again = await openAndReveal(recipient, link);
  await again.getByTestId('secret-gone').waitFor();
  await expect(again.getByTestId('secret-text').isVisible()).resolves.toBe(false);
  await Promise.all([sender.close(), recipient.close()]);
});

test('a 3 MB file shared in the page downloads under its name in another browser', async () => {
  const bytes = Buffer.alloc(3_000_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + (i >> 11)) & 0xff;
  const sender = await pages.person();
  const link = await shareInPage(sender, (page) =>
    page.getByTestId('share-file').setInputFiles({ name: 'quarterly report.pdf', mimeType: 'application/pdf', buffer: bytes }),
  );

  const recipient = await pages.person();
  const page = await openAndReveal(recipient, link);
  const fileLink = page.getByTestId('secret-file');
  await fileLink.waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), fileLink.click()]);
  expect(download.suggestedFilename()).toBe('quarterly report.pdf');
  expect((await readFile(await download.path())).equals(bytes)).toBe(true);
  await Promise.all([sender.close(), recipient.close()]);
});

test('a file is offered under the last segment of its name, without control characters', async () => {
  const { link } = await api().share({ name: '../../etc/pass\u0007wd', bytes: new Uint8Array([1, 2, 3]) });
  const recipient = await pages.person();
  const page = await openAndReveal(recipient, link);
  await page.getByTestId('secret-file').waitFor();
  await expect(page.getByTestId('secret-file').getAttribute('download')).resolves.toBe('passwd');
  await recipient.close();
});

test('a wrong key shows the error and nothing of the plaintext', async () => {
  const { link } = await api().share('not for you');
  const { id } = parseLink(link);
  const wrong = makeLink(`${pages.siteUrl}/${id}`, crypto.getRandomValues(new Uint8Array(32)));
  const recipient = await pages.person();
  const page = await openAndReveal(recipient, wrong);
  await page.getByTestId('error').waitFor();
  await expect(page.getByTestId('error').textContent()).resolves.toMatch(/could not be decrypted/);
  await expect(page.getByTestId('secret-text').textContent()).resolves.toBe('');
  await expect(page.content()).resolves.not.toContain('not for you');
  await recipient.close();
});

test.each([
  ['without its key', '', /incomplete: the part after “#”/],
  ['with a cut-off key', '#abc', /damaged/],
])('a link %s says so, offers no Reveal and uses no view', async (_, fragment, sentence) => {
  const { link } = await api().share('still here');
  const recipient = await pages.person();
  const page = await recipient.newPage();
  await page.goto(link.slice(0, link.indexOf('#')) + fragment);
  await page.getByTestId('error').waitFor();
  await expect(page.getByTestId('error').textContent()).resolves.toMatch(sentence);
  await expect(page.getByTestId('reveal-button').isVisible()).resolves.toBe(false);
  await expect(api().reveal(link)).resolves.toMatchObject({ text: 'still here', remaining: 0 });
  await recipient.close();
});

test('no page broke its Content-Security-Policy or threw', () => {
  expect(pages.problems).toEqual({ cspViolations: [], errors: [] });
});
