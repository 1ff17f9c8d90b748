import path from 'node:path';
import { API_BASE_PATH } from '../lambdas/definitions/limits';
import { startLocalServer } from '../test/support/local-server';
import { launchChromium } from '../test/support/browser';

/**
 * `npm run screenshots`: the share, before-reveal, reveal and gone states of the pages, as the README shows them,
 * taken in Chromium against a local-mode server of its own. Writes docs/pages-*.png.
 */

const DOCS = path.resolve(__dirname, '../docs');
const VIEWPORT = { width: 720, height: 640 };

async function main(): Promise<void> {
  const [server, browser] = await Promise.all([startLocalServer({ DYNAMODB_ENDPOINT: '', SITE_URL: '', LOCAL_REQUEST_LOG: 'off' }), launchChromium()]);
  try {
    const siteUrl = server.baseUrl.slice(0, -API_BASE_PATH.length);
    const sender = await browser.newPage({ viewport: VIEWPORT });
    await sender.goto(`${siteUrl}/`);
    await sender.getByTestId('share-text').fill('postgres://app:Tr0ub4dor&3@db.internal:5432/orders');
    await sender.getByTestId('share-ttl').selectOption('1h');
    await sender.getByTestId('share-submit').click();
    await sender.getByTestId('share-link').waitFor();
    const link = await sender.getByTestId('share-link').inputValue();
    await sender.screenshot({ path: path.join(DOCS, 'pages-share.png') });

    const recipient = await browser.newContext({ viewport: VIEWPORT });
    const revealed = await recipient.newPage();
    await revealed.goto(link);
    await revealed.getByTestId('reveal-button').waitFor();
    await revealed.screenshot({ path: path.join(DOCS, 'pages-before-reveal.png') });
    await revealed.getByTestId('reveal-button').click();
    await revealed.getByTestId('secret-text').waitFor();
    await revealed.screenshot({ path: path.join(DOCS, 'pages-reveal.png') });

    const gone = await recipient.newPage();
    await gone.goto(link);
    await gone.getByTestId('reveal-button').click();
    await gone.getByTestId('secret-gone').waitFor();
    await gone.screenshot({ path: path.join(DOCS, 'pages-gone.png') });
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
