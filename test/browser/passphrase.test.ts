import type { BrowserContext, Page } from 'playwright-core';
import vectors from '../../client/test-vectors-v2.json';
import { OnetimeClient, parseLink } from '../../client/src';
import { API_BASE_PATH } from '#contract/limits';
import type { PagesUnderTest } from '../support/browser';
import { pagesUnderTestForThisFile } from './support/pages-for-this-file';

/**
 * The pages with a passphrase (docs/pages.md), in Chromium against local mode: the share page's
 * optional field, and a reveal page that asks for the passphrase before it claims anything, so
 * that a mail scanner pressing every button uses neither a view nor an attempt.
 */

let pages: PagesUnderTest;
pagesUnderTestForThisFile((started) => (pages = started));

/** A browser of its own (the browser's default locale), and every request it sends to the API. */
async function person(): Promise<{ context: BrowserContext; apiRequests: string[] }> {
  const context = await pages.person({});
  const apiRequests: string[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(API_BASE_PATH)) apiRequests.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  return { context, apiRequests };
}

const api = (): OnetimeClient => new OnetimeClient({ baseUrl: pages.baseUrl });

async function shareInPage(context: BrowserContext, text: string, passphrase: string): Promise<{ link: string; page: Page }> {
  const page = await context.newPage();
  await page.goto(`${pages.siteUrl}/`);
  await page.getByTestId('share-text').fill(text);
  await page.getByTestId('share-passphrase').fill(passphrase);
  await page.getByTestId('share-submit').click();
  await page.getByTestId('share-link').waitFor();
  return { link: await page.getByTestId('share-link').inputValue(), page };
}

async function revealInPage(page: Page, link: string, passphrase: string): Promise<void> {
  await page.goto(link);
  await page.getByTestId('reveal-passphrase').fill(passphrase);
  await page.getByTestId('reveal-button').click();
}

/**
 * What link-checking mail scanners do in a real browser: press every button, submit every form,
 * press Enter in every field, follow nothing else. `typing`: a scanner that also fills fields.
 */
async function scan(page: Page, typing?: string): Promise<void> {
  if (typing !== undefined) {
    for (const field of await page.locator('input:visible, textarea:visible').all()) await field.fill(typing);
  }
  for (const button of await page.locator('button:visible').all()) await button.click();
  await page.$$eval('form', (forms) => forms.forEach((form) => (form as unknown as { requestSubmit(): void }).requestSubmit()));
  for (const field of await page.locator('input:visible').all()) await field.press('Enter');
  // Whatever those started has had time to reach the network.
  await page.waitForTimeout(3_000);
}

test('the share page makes a "#p." link whose note tells to pass the passphrase on separately', async () => {
  const { context } = await person();
  const { link, page } = await shareInPage(context, 'gated text', 'pass phrase');
  expect(link).toMatch(/#p\.[A-Za-z0-9_-]{43}$/);
  await expect(page.getByText('They will also need the passphrase').isVisible()).resolves.toBe(true);
  // The library opens what the page made: one construction for every client.
  await expect(api().reveal(link, { passphrase: 'pass phrase' })).resolves.toMatchObject({ text: 'gated text', remaining: 0 });
  await context.close();
});

test('a scanner that presses every button uses nothing; one that types uses an attempt, never a view; the person still reveals', async () => {
  const sender = await person();
  const { link } = await shareInPage(sender.context, 'for the right person', 'the passphrase');

  const scanner = await person();
  const scanned = await scanner.context.newPage();
  await scanned.goto(link);
  await scan(scanned);
  expect(scanner.apiRequests).toEqual([]);
  await expect(scanned.getByTestId('error').textContent()).resolves.toBe('Type the passphrase the sender gave you.');
  await expect(scanned.getByTestId('secret-text').isVisible()).resolves.toBe(false);

  const eager = await person();
  const typed = await eager.context.newPage();
  await typed.goto(link);
  await scan(typed, 'scanner');
  expect(eager.apiRequests.filter((request) => request.startsWith('GET /api/v1/secrets/'))).toHaveLength(1);
  await expect(typed.getByTestId('attempts-left').textContent()).resolves.toBe(
    'Wrong passphrase. 4 attempts are left before the secret is destroyed.',
  );

  const recipient = await person();
  const page = await recipient.context.newPage();
  await revealInPage(page, link, 'the passphrase');
  await page.getByTestId('secret-text').waitFor();
  await expect(page.getByTestId('secret-text').textContent()).resolves.toBe('for the right person');
  await expect(page.getByText('That was its last view').isVisible()).resolves.toBe(true);
  expect(page.url()).not.toContain('#');
  await Promise.all([sender, scanner, eager, recipient].map(({ context }) => context.close()));
});

test('each wrong passphrase says how many attempts remain; the 5th says the secret was destroyed', async () => {
  const { link } = await api().share('five tries', { passphrase: 'right', views: 2 });
  const { context } = await person();
  const page = await context.newPage();
  await page.goto(link);
  await expect(
    page
      .getByTestId('reveal-passphrase')
      .evaluate((field: { ownerDocument: { activeElement: unknown } }) => field === field.ownerDocument.activeElement),
  ).resolves.toBe(true);
  const shown: (string | null)[] = [];
  for (let attempt = 1; attempt <= 4; attempt++) {
    await page.getByTestId('reveal-passphrase').fill(`wrong ${attempt}`);
    await page.getByTestId('reveal-button').click();
    await page.getByText(`${5 - attempt === 1 ? 'One attempt is' : `${5 - attempt} attempts are`} left`).waitFor();
    shown.push(await page.getByTestId('attempts-left').textContent());
  }
  expect(shown).toEqual([
    'Wrong passphrase. 4 attempts are left before the secret is destroyed.',
    'Wrong passphrase. 3 attempts are left before the secret is destroyed.',
    'Wrong passphrase. 2 attempts are left before the secret is destroyed.',
    'Wrong passphrase. One attempt is left before the secret is destroyed.',
  ]);
  await page.getByTestId('reveal-passphrase').fill('wrong 5');
  await page.getByTestId('reveal-button').click();
  await page.getByTestId('secret-burned').waitFor();
  await expect(page.getByTestId('secret-burned').textContent()).resolves.toMatch(
    /wrong passphrase number 5, the last one allowed: the secret has been destroyed/,
  );
  await expect(page.getByTestId('reveal-button').isVisible()).resolves.toBe(false);
  await expect(api().reveal(link, { passphrase: 'right' })).rejects.toMatchObject({ kind: 'gone' });
  await context.close();
});

test('the reveal page opens a secret made from the v2 test vectors (node:crypto)', async () => {
  const [text] = vectors.envelopes;
  const [derivation] = vectors.derivations;
  const { key } = await api().createKey();
  const response = await fetch(`${pages.baseUrl}/secrets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: text?.sent, gate: derivation?.gateBase64Url }),
  });
  const { id } = (await response.json()) as { id: string };
  const { context } = await person();
  const page = await context.newPage();
  await revealInPage(page, `${pages.siteUrl}/${id}${new URL(vectors.link.link).hash}`, derivation?.passphrase ?? '');
  await page.getByTestId('secret-text').waitFor();
  await expect(page.getByTestId('secret-text').textContent()).resolves.toBe(text?.plaintextUtf8);
  await context.close();
});

test('a passphrase typed decomposed in the page opens with its NFC form elsewhere; spaces are kept', async () => {
  const decomposed = ' Cafe\u0301 ';
  const { context } = await person();
  const { link } = await shareInPage(context, 'nfc', decomposed);
  expect(parseLink(link).gated).toBe(true);
  await expect(api().reveal(link, { passphrase: 'Café' })).rejects.toMatchObject({ kind: 'passphrase', attemptsLeft: 4 });
  await expect(api().reveal(link, { passphrase: decomposed.normalize('NFC') })).resolves.toMatchObject({ text: 'nfc' });
  await context.close();
});

test('every control has a label, and no page broke its Content-Security-Policy or threw', async () => {
  const { link } = await api().share('labels', { passphrase: 'x' });
  const { context } = await person();
  for (const url of [`${pages.siteUrl}/`, link]) {
    const page = await context.newPage();
    await page.goto(url);
    const unlabelled = await page.$$eval('input, select, textarea', (controls: { id: string; labels: ArrayLike<unknown> }[]) =>
      controls.filter((control) => control.labels.length === 0).map((control) => control.id),
    );
    expect(unlabelled).toEqual([]);
  }
  await context.close();
  expect(pages.problems).toEqual({ cspViolations: [], errors: [] });
});
