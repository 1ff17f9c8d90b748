import { writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { encode } from 'uqr';
import { OnetimeClient, makeLink, parseLink } from '../../client/src';
import { total, weigh, type FileWeight } from '../support/page-weight';
import type { PagesUnderTest } from '../support/browser';
import { pagesUnderTestForThisFile } from './support/pages-for-this-file';

/**
 * The pages for everyone (docs/pages.md): axe-core finds no WCAG 2.1 A/AA violation in any state
 * of the share, reveal and request pages, in both colour schemes and three languages; the whole
 * share → reveal flow, and a secret request's, work from the keyboard alone; the language follows the browser and the switch; 320 px with text at
 * 200% loses nothing; each page stays under its byte budget, from its own origin only.
 */

let pages: PagesUnderTest;
pagesUnderTestForThisFile((started) => (pages = started));

const api = (): OnetimeClient => new OnetimeClient({ baseUrl: pages.baseUrl });

/** A browser whose preferred language is `locale`. */
const person = (locale = 'en-US', options: BrowserContextOptions = {}): Promise<BrowserContext> => pages.person({ locale, ...options });

/** Opens `url` and waits until the page shows itself in `language` (its catalogue may load after the page). */
async function open(context: BrowserContext, url: string, language: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
  return page;
}

// Run in the page; the tests are typed without the DOM, hence expressions as strings.
const FOCUSED_ID = "document.activeElement?.id ?? ''";
const OVERFLOW = `(() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  if (document.documentElement.scrollWidth > width) found.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
  for (const element of document.querySelectorAll('h1, h2, p, label, button, input, select, textarea, a, pre, svg, figcaption')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue; // hidden
    const name = element.tagName.toLowerCase() + '#' + element.id;
    if (box.left < -0.5 || box.right > width + 0.5) found.push(name + ': ' + box.left + '–' + box.right + ' of ' + width);
    // Words cut off inside their own box: a button or label too narrow for them.
    if (element.matches('h1, h2, p, label, button, a') && element.scrollWidth > element.clientWidth + 1) found.push(name + ' clips its text');
  }
  return found;
})()`;

const WCAG_21_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const THEMES = ['light', 'dark'] as const;

interface AxeRecord {
  language: string;
  state: string;
  theme: (typeof THEMES)[number];
  violations: string[];
  passes: number;
}
const axeRecords: AxeRecord[] = [];

/** axe-core's WCAG 2.1 A and AA rules on the page as it is, in both colour schemes. */
async function checkBothThemes(page: Page, language: string, state: string): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    // Legacy mode runs axe in the page itself (these pages have no frames), and results beyond
    // violations are summarised rather than collected node by node: both halve the run's time.
    const results = await new AxeBuilder({ page })
      .withTags(WCAG_21_A_AA)
      .options({ resultTypes: ['violations'] })
      .setLegacyMode()
      .analyze();
    const violations = results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    axeRecords.push({ language, state, theme, violations, passes: results.passes.length });
    expect({ language, state, theme, violations }).toEqual({ language, state, theme, violations: [] });
  }
}

describe.each([
  ['en-US', 'en'],
  ['ja-JP', 'ja'],
  ['de-DE', 'de'],
])('axe in %s', (locale, language) => {
  test('the share page: empty, filled, an error, the link ready', async () => {
    const context = await person(locale);
    const page = await open(context, `${pages.siteUrl}/`, language);
    await checkBothThemes(page, language, 'share: empty');
    await page.getByTestId('share-submit').click();
    await page.getByTestId('error').waitFor();
    await checkBothThemes(page, language, 'share: error');
    await page.getByTestId('share-text').fill('correct horse battery staple');
    await page.getByTestId('share-views').selectOption('3');
    await checkBothThemes(page, language, 'share: filled');
    await page.getByTestId('share-submit').click();
    await page.getByTestId('share-link').waitFor();
    await page.getByTestId('share-qr').locator('svg').waitFor();
    await checkBothThemes(page, language, 'share: link ready');
    // The session's list, with the state a Revoke leaves and its announcement.
    await page.getByTestId('sent-revoke').click();
    await page.getByTestId('sent-status').waitFor();
    await checkBothThemes(page, language, 'share: session list, a link revoked');
    await context.close();
  });

  test('the reveal page: before reveal, revealed text, revealed file, gone, error', async () => {
    const context = await person(locale);
    const { link } = await api().share('correct horse battery staple');
    const page = await open(context, link, language);
    await page.getByTestId('reveal-button').waitFor();
    await checkBothThemes(page, language, 'reveal: before reveal');
    await page.getByTestId('reveal-button').click();
    await page.getByTestId('secret-text').waitFor();
    await checkBothThemes(page, language, 'reveal: revealed text');

    const file = await api().share({ name: 'report.pdf', bytes: new Uint8Array(2048), mimetype: 'application/pdf' });
    const filePage = await open(context, file.link, language);
    await filePage.getByTestId('reveal-button').click();
    await filePage.getByTestId('secret-file').waitFor();
    await checkBothThemes(filePage, language, 'reveal: revealed file');

    const gonePage = await open(context, link, language);
    await gonePage.getByTestId('reveal-button').click();
    await gonePage.getByTestId('secret-gone').waitFor();
    await checkBothThemes(gonePage, language, 'reveal: gone');

    const { link: other } = await api().share('not for you');
    const wrongKey = makeLink(`${pages.siteUrl}/${parseLink(other).id}`, crypto.getRandomValues(new Uint8Array(32)));
    const errorPage = await open(context, wrongKey, language);
    await errorPage.getByTestId('reveal-button').click();
    await errorPage.getByTestId('error').waitFor();
    await checkBothThemes(errorPage, language, 'reveal: error');
    await context.close();
  });

  test('the reveal page of a gated link: asking, no passphrase, a wrong one, destroyed', async () => {
    const context = await person(locale);
    const { link } = await api().share('correct horse battery staple', { passphrase: 'right' });
    const page = await open(context, link, language);
    await page.getByTestId('reveal-passphrase').waitFor();
    await checkBothThemes(page, language, 'reveal: passphrase asked');
    await page.getByTestId('reveal-button').click();
    await page.getByTestId('error').waitFor();
    await checkBothThemes(page, language, 'reveal: no passphrase');
    await page.getByTestId('reveal-passphrase').fill('wrong');
    await page.getByTestId('reveal-button').click();
    await page.getByTestId('attempts-left').waitFor();
    await checkBothThemes(page, language, 'reveal: wrong passphrase');
    // Three more wrong ones elsewhere; the page's next is the last.
    for (let attempt = 0; attempt < 3; attempt++)
      await api()
        .reveal(link, { passphrase: 'wrong' })
        .catch(() => undefined);
    await page.getByTestId('reveal-passphrase').fill('wrong');
    await page.getByTestId('reveal-button').click();
    await page.getByTestId('secret-burned').waitFor();
    await checkBothThemes(page, language, 'reveal: destroyed');
    await context.close();
  });
  test('the request pages: asking, links ready; answering, empty, sent, gone; receiving, waiting, answered, revealed', async () => {
    const context = await person(locale);
    const page = await open(context, `${pages.siteUrl}/request`, language);
    await page.getByTestId('request-submit').waitFor();
    await checkBothThemes(page, language, 'request: empty');
    await page.getByTestId('request-note').fill('The staging database password, please');
    await page.getByTestId('request-submit').click();
    await page.getByTestId('request-link').waitFor();
    await checkBothThemes(page, language, 'request: links ready');
    const requestLink = await page.getByTestId('request-link').inputValue();
    const receiveLink = await page.getByTestId('receive-link').inputValue();

    const receiving = await open(context, receiveLink, language);
    await receiving.getByTestId('receive-check').waitFor();
    await checkBothThemes(receiving, language, 'receive: not answered yet');

    const answering = await open(context, requestLink, language);
    await answering.getByTestId('fulfil-note').waitFor();
    await checkBothThemes(answering, language, 'fulfil: the note and the form');
    await answering.getByTestId('fulfil-submit').click();
    await answering.getByTestId('error').waitFor();
    await checkBothThemes(answering, language, 'fulfil: nothing to send');
    await answering.getByTestId('fulfil-text').fill('hunter2');
    await answering.getByTestId('fulfil-submit').click();
    await answering.getByTestId('fulfil-sent').waitFor();
    await checkBothThemes(answering, language, 'fulfil: sent');
    const gone = await open(context, requestLink, language);
    await gone.getByTestId('error').waitFor();
    await checkBothThemes(gone, language, 'fulfil: answered already');

    await receiving.getByTestId('receive-check').click();
    await receiving.getByTestId('receive-reveal').waitFor();
    await checkBothThemes(receiving, language, 'receive: answered');
    await receiving.getByTestId('receive-reveal').click();
    await receiving.getByTestId('secret-text').waitFor();
    await checkBothThemes(receiving, language, 'receive: revealed text');
    await context.close();
  });
});

test('the whole share → reveal flow works with the keyboard alone, moving focus to each result and announcing it', async () => {
  const sender = await person('en-US', { permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await open(sender, `${pages.siteUrl}/`, 'en');
  const focused = (target = page): Promise<string> => target.evaluate<string>(FOCUSED_ID);
  /** Tab until `id` has focus: the page's own order, however many stops it has. */
  const tabTo = async (target: Page, id: string): Promise<void> => {
    for (let stops = 0; stops < 12; stops++) {
      await target.keyboard.press('Tab');
      if ((await focused(target)) === id) return;
    }
    throw new Error(`Tab never reached #${id}`);
  };
  await tabTo(page, 'text');
  await page.keyboard.type('typed, not pasted');
  await tabTo(page, 'views');
  await page.keyboard.press('ArrowDown'); // 2 views
  await tabTo(page, 'submit');
  await page.keyboard.press('Enter');
  await page.getByTestId('share-link').waitFor();
  expect(await focused()).toBe('result-title');
  await expect(page.getByTestId('status').textContent()).resolves.toBe('Your secret is encrypted and stored; its link is below.');
  await expect(page.getByTestId('status').getAttribute('role')).resolves.toBe('status');
  await expect(page.locator('#result-views').textContent()).resolves.toMatch(/^It can be opened 2 times, until /);
  await tabTo(page, 'copy-link');
  await page.keyboard.press('Enter');
  // The copy is announced once the clipboard's promise settles: wait for it, not for Enter alone.
  await page.locator('#copy-status').waitFor({ state: 'visible' });
  await expect(page.locator('#copy-status').textContent()).resolves.toBe('Copied.');
  const link = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(link).toBe(await page.getByTestId('share-link').inputValue());

  const recipient = await person('en-US');
  const reveal = await open(recipient, link, 'en');
  await tabTo(reveal, 'reveal');
  await reveal.keyboard.press('Enter');
  await reveal.getByTestId('secret-text').waitFor();
  expect(await focused(reveal)).toBe('secret-text');
  await expect(reveal.getByTestId('secret-text').textContent()).resolves.toBe('typed, not pasted');
  await expect(reveal.getByTestId('status').textContent()).resolves.toBe('The secret is revealed below.');
  await expect(reveal.locator('#remaining').textContent()).resolves.toBe('It can be viewed once more.');
  await Promise.all([sender.close(), recipient.close()]);
});

test('a secret request works with the keyboard alone, moving focus to each result and announcing it', async () => {
  const requester = await person('en-US', { permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await open(requester, `${pages.siteUrl}/request`, 'en');
  const focused = (target: Page): Promise<string> => target.evaluate<string>(FOCUSED_ID);
  const tabTo = async (target: Page, id: string): Promise<void> => {
    for (let stops = 0; stops < 12; stops++) {
      await target.keyboard.press('Tab');
      if ((await focused(target)) === id) return;
    }
    throw new Error(`Tab never reached #${id}`);
  };
  await tabTo(page, 'note');
  await page.keyboard.type('The VPN password, please');
  await tabTo(page, 'ttl');
  await page.keyboard.press('ArrowDown');
  await tabTo(page, 'ask-submit');
  await page.keyboard.press('Enter');
  await page.getByTestId('request-link').waitFor();
  expect(await focused(page)).toBe('asked-title');
  await expect(page.getByTestId('status').textContent()).resolves.toBe('Your request is ready; its two links are below.');
  await tabTo(page, 'copy-request-link');
  await page.keyboard.press('Enter');
  // The copy is announced once the clipboard's promise settles: wait for it, not for Enter alone.
  await page.locator('#asked-copy-status').waitFor({ state: 'visible' });
  await expect(page.locator('#asked-copy-status').textContent()).resolves.toBe('Copied.');
  const requestLink = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(requestLink).toBe(await page.getByTestId('request-link').inputValue());
  const receiveLink = await page.getByTestId('receive-link').inputValue();

  const sender = await person('en-US');
  const answering = await open(sender, requestLink, 'en');
  await answering.getByTestId('fulfil-note').waitFor();
  await tabTo(answering, 'answer-text');
  await answering.keyboard.type('typed, not pasted');
  await tabTo(answering, 'answer-submit');
  await answering.keyboard.press('Enter');
  await answering.getByTestId('fulfil-sent').waitFor();
  expect(await focused(answering)).toBe('sent');

  const receiving = await open(requester, receiveLink, 'en');
  await receiving.getByTestId('receive-reveal').waitFor();
  await expect(receiving.getByTestId('receive-state').getAttribute('aria-live')).resolves.toBe('polite');
  await tabTo(receiving, 'receive-reveal');
  await receiving.keyboard.press('Enter');
  await receiving.getByTestId('secret-text').waitFor();
  expect(await focused(receiving)).toBe('secret-text');
  await expect(receiving.getByTestId('secret-text').textContent()).resolves.toBe('typed, not pasted');
  await Promise.all([requester.close(), sender.close()]);
});

describe('languages', () => {
  test("the page speaks the browser's language, with its title, lang and dates", async () => {
    const context = await person('pl-PL');
    const page = await open(context, `${pages.siteUrl}/`, 'pl');
    await expect(page.title()).resolves.toBe('Udostępnij sekret');
    await expect(page.locator('h1').textContent()).resolves.toBe('Udostępnij sekret');
    await expect(page.getByTestId('share-views').locator('option').allTextContents()).resolves.toEqual([
      '1 wyświetlenie',
      '2 wyświetlenia',
      '3 wyświetlenia',
      '4 wyświetlenia',
      '5 wyświetleń',
    ]);
    await expect(page.getByTestId('share-ttl').locator('option').first().textContent()).resolves.toBe('1 godzina');
    await page.getByTestId('share-text').fill('sekret');
    await page.getByTestId('share-submit').click();
    await page.getByTestId('share-link').waitFor();
    const expires = await page.locator('#result-views').textContent();
    expect(expires).toMatch(/^Można go otworzyć raz, do \d{1,2} [a-zśźżćńółęą]+ \d{4}, \d{2}:\d{2}\.$/);
    await context.close();
  });

  test('the switch rewrites every text already shown, and is remembered', async () => {
    const context = await person('en-US');
    const page = await open(context, `${pages.siteUrl}/`, 'en');
    await page.getByTestId('share-submit').click();
    await page.getByTestId('error').waitFor({ state: 'visible' });
    await expect(page.getByTestId('error').textContent()).resolves.toBe('Type a secret or choose a file to share.');
    await page.getByTestId('language').selectOption('fr');
    await page.locator('html[lang="fr"]').waitFor({ state: 'attached' });
    await expect(page.getByTestId('error').textContent()).resolves.toBe('Saisissez un secret ou choisissez un fichier à partager.');
    await expect(page.title()).resolves.toBe('Partager un secret');
    await expect(page.getByLabel('Texte secret').count()).resolves.toBe(1);

    const reveal = await open(context, `${pages.siteUrl}/${'A'.repeat(22)}`, 'fr');
    await expect(reveal.getByTestId('error').textContent()).resolves.toMatch(/^Ce lien est incomplet/);
    await expect(reveal.getByTestId('language').inputValue()).resolves.toBe('fr');
    await context.close();
  });

  test("the QR code is the link's, drawn in the page, with a text alternative and a note that it carries the key", async () => {
    const context = await person('en-US');
    const page = await open(context, `${pages.siteUrl}/`, 'en');
    await page.getByTestId('share-text').fill('scan me');
    await page.getByTestId('share-submit').click();
    await page.getByTestId('share-link').waitFor();
    const link = await page.getByTestId('share-link').inputValue();
    const svg = page.getByTestId('share-qr').locator('svg');
    await expect(svg.getAttribute('aria-label')).resolves.toBe('QR code of the link');
    await expect(svg.getAttribute('role')).resolves.toBe('img');
    await expect(page.locator('figcaption').textContent()).resolves.toMatch(/carries the key/);
    // The path's unit squares are exactly the dark modules of the link's QR code (quiet zone included).
    const { data, size } = encode(link, { ecc: 'M', border: 4 });
    await expect(svg.getAttribute('viewBox')).resolves.toBe(`0 0 ${size} ${size}`);
    const drawn = (await svg.locator('path').getAttribute('d')) ?? '';
    const dark = new Set([...drawn.matchAll(/M(\d+) (\d+)/g)].map(([, x, y]) => `${x},${y}`));
    const expected = data.flatMap((row, y) => row.flatMap((isDark, x) => (isDark ? [`${x},${y}`] : [])));
    expect(dark.size).toBe(expected.length);
    expect(expected.every((module) => dark.has(module))).toBe(true);
    // A quiet zone of four light modules on every side.
    expect(
      [...dark].every((module) =>
        module
          .split(',')
          .map(Number)
          .every((at) => at >= 4 && at < size - 4),
      ),
    ).toBe(true);
    await context.close();
  });
});

describe('layout', () => {
  /** Anything wider than the viewport, or a control cut off at its left or right edge. */
  const overflow = (page: Page): Promise<string[]> => page.evaluate<string[]>(OVERFLOW);

  /** 200% text: Chromium's default font size doubled, as a reader's browser setting does; the pages size everything in rem. */
  async function doubleText(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
  }

  test.each([
    ['de-DE', 'de'],
    ['ja-JP', 'ja'],
    ['en-US', 'en'],
  ])('at 320 px with text at 200%% (%s), nothing scrolls sideways or is cut off', async (locale, language) => {
    const context = await person(locale, { viewport: { width: 320, height: 640 } });
    const page = await open(context, `${pages.siteUrl}/`, language);
    await doubleText(page);
    expect(await page.evaluate<string>('getComputedStyle(document.body).fontSize')).toBe('32px');
    expect(await overflow(page)).toEqual([]);
    await page.getByTestId('share-text').fill('correct horse battery staple');
    await page.getByTestId('share-submit').click();
    await page.getByTestId('share-link').waitFor();
    expect(await overflow(page)).toEqual([]);
    const link = await page.getByTestId('share-link').inputValue();

    const reveal = await open(context, link, language);
    await doubleText(reveal);
    await reveal.getByTestId('reveal-button').waitFor();
    expect(await overflow(reveal)).toEqual([]);
    await reveal.getByTestId('reveal-button').click();
    await reveal.getByTestId('secret-text').waitFor();
    expect(await overflow(reveal)).toEqual([]);
    await context.close();
  });
});

describe('weight', () => {
  const PAGE_BUDGET_BYTES = 60 * 1024;

  /** Every response a page load brings, with what it weighs as CloudFront would send it. */
  async function load(locale: string, language: string, path: string): Promise<{ files: FileWeight[]; origins: Set<string> }> {
    const context = await person(locale);
    const page = await context.newPage();
    const bodies: Promise<FileWeight>[] = [];
    const origins = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      origins.add(url.origin);
      bodies.push(response.body().then((body) => weigh(url.pathname, body)));
    });
    await page.goto(`${pages.siteUrl}${path}`, { waitUntil: 'networkidle' });
    await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
    const files = await Promise.all(bodies);
    await context.close();
    return { files, origins };
  }

  const weights: Record<string, Omit<FileWeight, 'path'> & { files: number }> = {};

  test.each([
    ['share', 'en-US', 'en', '/'],
    ['share', 'ja-JP', 'ja', '/'],
    ['reveal', 'en-US', 'en', `/${'A'.repeat(22)}#${'B'.repeat(43)}`],
    ['reveal', 'ja-JP', 'ja', `/${'A'.repeat(22)}#${'B'.repeat(43)}`],
    ['request', 'en-US', 'en', '/request'],
  ])('the %s page in %s loads under 60 KB compressed, all of it from its own origin', async (name, locale, language, path) => {
    const { files, origins } = await load(locale, language, path);
    expect([...origins]).toEqual([pages.siteUrl]);
    const sum = total(files);
    weights[`${name} ${language}`] = { ...sum, files: files.length };
    expect(sum.gzip).toBeLessThan(PAGE_BUDGET_BYTES);
    expect(sum.brotli).toBeLessThan(sum.gzip);
    // Another language's catalogue is not among them.
    expect(files.filter((file) => /\/(de|fr|es|pt-BR|it|nl|pl|zh-CN)-\w+\.js$/.test(file.path))).toEqual([]);
  });

  afterAll(() => {
    // `AXE_REPORT=file npx jest test/browser/accessibility.test.ts` keeps the figures for a report.
    if (process.env.AXE_REPORT) writeFileSync(process.env.AXE_REPORT, JSON.stringify({ axe: axeRecords, weights }, null, 2));
  });
});

test('no page broke its Content-Security-Policy or threw', () => {
  expect(pages.problems).toEqual({ cspViolations: [], errors: [] });
});
