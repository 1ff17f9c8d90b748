import type { Locator, Page } from 'playwright-core';
import { eventually } from '../support/eventually';
import type { PagesUnderTest } from '../support/browser';
import { pagesUnderTestForThisFile } from './support/pages-for-this-file';

/**
 * The share page's list of this session's links (docs/pages.md) in Chromium, against local mode:
 * two links made, one revealed in another browser, the list shows `used` and `active` when the
 * page is shown again, and Revoke, pressed from the keyboard, turns the other `revoked`; each
 * change is announced in the list's live region.
 */

let pages: PagesUnderTest;
pagesUnderTestForThisFile((started) => (pages = started));

async function share(page: Page, text: string): Promise<string> {
  await page.getByTestId('share-text').fill(text);
  await page.getByTestId('share-submit').click();
  await page.getByTestId('share-link').waitFor({ timeout: 30_000 });
  return page.getByTestId('share-link').inputValue();
}

const idOf = (link: string): string => new URL(link).pathname.slice(1);

/** The list's row of a link: it shows the first characters of its id, never the key. */
const rowOf = (page: Page, link: string): Locator => page.getByTestId('sent-item').filter({ hasText: idOf(link).slice(0, 8) });

/** What the page does when the person comes back to its tab: asks for the states again. */
const comeBack = async (page: Page): Promise<void> => {
  await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
};

test('two links, one revealed elsewhere: used and active on coming back; Revoke makes the other revoked', async () => {
  const sender = await pages.person();
  const page = await sender.newPage();
  await page.goto(`${pages.siteUrl}/`);
  const first = await share(page, 'the first secret');
  await page.getByRole('button', { name: 'Share another secret' }).click();
  const second = await share(page, 'the second secret');

  const rows = page.getByTestId('sent-item');
  await expect(rows.count()).resolves.toBe(2);
  expect(await rowOf(page, first).getByTestId('sent-state').textContent()).toBe('active: 1 view left');
  expect(await rowOf(page, second).getByTestId('sent-state').textContent()).toBe('active: 1 view left');
  // Ids only: no key of either link is anywhere in the page's list or its storage.
  const listed = (await page.getByTestId('sent').innerText()) + (await page.evaluate<string>('JSON.stringify(sessionStorage)'));
  for (const link of [first, second]) expect(listed).not.toContain(new URL(link).hash.slice(1));

  const recipient = await pages.person();
  const reveal = await recipient.newPage();
  await reveal.goto(first);
  await reveal.getByTestId('reveal-button').click();
  await reveal.getByText('the first secret').waitFor();

  await eventually(async () => {
    await comeBack(page);
    expect(await rowOf(page, first).getByTestId('sent-state').textContent()).toBe('used');
  }, 20_000);
  expect(await rowOf(page, second).getByTestId('sent-state').textContent()).toBe('active: 1 view left');
  expect(await page.getByTestId('sent-status').textContent()).toBe(`Link ${idOf(first).slice(0, 8)}… is now used.`);
  // A used link has nothing left to revoke.
  await expect(rowOf(page, first).getByTestId('sent-revoke').count()).resolves.toBe(0);

  // The keyboard alone reaches the other link's Revoke button and presses it.
  const revoke = rowOf(page, second).getByRole('button', { name: `Revoke link ${idOf(second).slice(0, 8)}…` });
  await page.getByTestId('share-link').focus();
  const isFocused = (): Promise<boolean> =>
    revoke.evaluate((button: { ownerDocument: { activeElement: unknown } }) => button.ownerDocument.activeElement === button);
  for (let presses = 0; presses < 20 && !(await isFocused()); presses++) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await eventually(async () => expect(await rowOf(page, second).getByTestId('sent-state').textContent()).toBe('revoked'));
  expect(await page.getByTestId('sent-status').textContent()).toBe(`Link ${idOf(second).slice(0, 8)}… is now revoked.`);
  // Focus stays in the list, on a control that is still there.
  expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('data-testid') ?? null")).toBe('sent-refresh');

  // The service agrees: the revoked link is gone for its recipient.
  const late = await recipient.newPage();
  await late.goto(second);
  await late.getByTestId('reveal-button').click();
  await late.getByText(/This secret is gone/).waitFor();

  // Coming back later keeps both final states (asked of the receipts, which outlive the data).
  await page.reload();
  await eventually(async () => {
    expect(await rowOf(page, first).getByTestId('sent-state').textContent()).toBe('used');
    expect(await rowOf(page, second).getByTestId('sent-state').textContent()).toBe('revoked');
  });
  await Promise.all([sender.close(), recipient.close()]);
});

test('no page broke its Content-Security-Policy or threw', () => {
  expect(pages.problems).toEqual({ cspViolations: [], errors: [] });
});
