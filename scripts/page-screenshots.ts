import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { API_BASE_PATH } from '#contract/limits';
import { startLocalServer } from '#test/support/local-server';
import { launchChromium } from '#test/support/browser';

/**
 * `npm run screenshots`: the share, before-reveal, reveal and gone states of the pages, as the
 * README shows them, taken in Chromium against a local-mode server of its own: in English, in
 * German, and in German with the dark colour scheme. Writes docs/pages-[<variant>-]<state>.png.
 */

const DOCS = path.resolve(__dirname, '../docs');
const VIEWPORT = { width: 720, height: 640 };

/** The prefix of its file names (docs/pages-<prefix><state>.png), and what the browser prefers. */
const VARIANTS: [string, BrowserContextOptions & { locale: string }][] = [
  ['', { locale: 'en-US', colorScheme: 'light' }],
  ['de-', { locale: 'de-DE', colorScheme: 'light' }],
  ['de-dark-', { locale: 'de-DE', colorScheme: 'dark' }],
];

async function takeFour(browser: Browser, siteUrl: string, [prefix, context]: (typeof VARIANTS)[number]): Promise<void> {
  const file = (state: string): string => path.join(DOCS, `pages-${prefix}${state}.png`);
  /** `url` in a new page of `browserContext`, once the document's `lang` is the browser's language. */
  const open = async (browserContext: BrowserContext, url: string): Promise<Page> => {
    const page = await browserContext.newPage();
    await page.goto(url);
    await page.locator(`html[lang="${context.locale.slice(0, 2)}"]`).waitFor({ state: 'attached' });
    return page;
  };
  const sender = await browser.newContext({ viewport: VIEWPORT, ...context });
  const share = await open(sender, `${siteUrl}/`);
  await share.getByTestId('share-text').fill('postgres://app:Tr0ub4dor&3@db.internal:5432/orders');
  await share.getByTestId('share-ttl').selectOption('1h');
  await share.getByTestId('share-submit').click();
  await share.getByTestId('share-link').waitFor();
  const link = await share.getByTestId('share-link').inputValue();
  // The whole result, its QR code and note included; the focus ring on the heading left out.
  await share.evaluate('document.activeElement.blur()');
  await share.screenshot({ path: file('share'), fullPage: true });

  const recipient = await browser.newContext({ viewport: VIEWPORT, ...context });
  const revealed = await open(recipient, link);
  await revealed.getByTestId('reveal-button').waitFor();
  await revealed.screenshot({ path: file('before-reveal') });
  await revealed.getByTestId('reveal-button').click();
  await revealed.getByTestId('secret-text').waitFor();
  await revealed.screenshot({ path: file('reveal') });

  const gone = await open(recipient, link);
  await gone.getByTestId('reveal-button').click();
  await gone.getByTestId('secret-gone').waitFor();
  await gone.screenshot({ path: file('gone') });
  await Promise.all([sender.close(), recipient.close()]);
}

async function main(): Promise<void> {
  const [server, browser] = await Promise.all([
    startLocalServer({ DYNAMODB_ENDPOINT: '', SITE_URL: '', LOCAL_REQUEST_LOG: 'off' }),
    launchChromium(),
  ]);
  try {
    const siteUrl = server.baseUrl.slice(0, -API_BASE_PATH.length);
    for (const variant of VARIANTS) await takeFour(browser, siteUrl, variant);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
