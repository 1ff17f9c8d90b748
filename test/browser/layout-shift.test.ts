import type { BrowserContext, Page } from 'playwright-core';
import { OnetimeClient } from '../../client/src';
import type { PagesUnderTest } from '../support/browser';
import { pagesUnderTestForThisFile } from './support/pages-for-this-file';

/**
 * Nothing on the pages moves once shown (Cumulative Layout Shift 0): Chromium's `layout-shift`
 * entries, buffered from the navigation on, in each state a person sees. As CLS does, a shift
 * within 500 ms of the person's own input does not count.
 */

let pages: PagesUnderTest;
pagesUnderTestForThisFile((started) => (pages = started));

afterAll(() => {
  expect(pages.problems).toEqual({ cspViolations: [], errors: [] });
});

const api = (): OnetimeClient => new OnetimeClient({ baseUrl: pages.baseUrl });

/** The page's layout shifts so far, with what moved; read once the page has settled. */
const LAYOUT_SHIFTS = `new Promise((resolve) => {
  const shifts = [];
  const describe = (node) => node ? node.nodeName.toLowerCase() + (node.id ? '#' + node.id : '') + (node.className ? '.' + node.className : '') : 'gone';
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) shifts.push({ value: entry.value, moved: entry.sources.map((source) => describe(source.node)) });
    }
  });
  observer.observe({ type: 'layout-shift', buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
    observer.disconnect();
    resolve(shifts);
  }, 100)));
})`;

interface Shift {
  value: number;
  moved: string[];
}

async function expectNoShift(page: Page, state: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  const shifts = await page.evaluate<Shift[]>(LAYOUT_SHIFTS);
  expect({ state, shifts }).toEqual({ state, shifts: [] });
}

/** A desktop window, and the phone Lighthouse's mobile run emulates. */
const VIEWPORTS = [
  ['desktop', { width: 1280, height: 720 }],
  ['phone', { width: 412, height: 823 }],
] as const;

describe.each(VIEWPORTS)('%s', (_name, viewport) => {
  let person: BrowserContext;
  beforeAll(async () => {
    person = await pages.person({ locale: 'en-US', viewport });
  });

  async function opened(url: string, context = person): Promise<Page> {
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  test('share: the empty page', async () => {
    await expectNoShift(await opened(`${pages.siteUrl}/`), 'share');
  });

  test('share: its link', async () => {
    const page = await opened(`${pages.siteUrl}/`);
    await page.getByTestId('share-text').fill('hunter2');
    await page.getByTestId('share-submit').click();
    await page.getByTestId('share-link').waitFor();
    await expectNoShift(page, 'share, link ready');
  });

  test('share in German: the page shown in the reader’s language', async () => {
    const page = await opened(`${pages.siteUrl}/`, await pages.person({ locale: 'de-DE', viewport }));
    await page.getByText('Ein Geheimnis teilen').first().waitFor();
    await expectNoShift(page, 'share, German');
  });

  test('reveal: before reveal', async () => {
    await expectNoShift(await opened((await api().share('hunter2')).link), 'reveal, before reveal');
  });

  test('reveal: before reveal, with a passphrase', async () => {
    await expectNoShift(await opened((await api().share('hunter2', { passphrase: 'correct horse' })).link), 'reveal, gated, before reveal');
  });

  test('reveal: revealed', async () => {
    const page = await opened((await api().share('hunter2')).link);
    await page.getByTestId('reveal-button').click();
    await page.getByTestId('secret-text').waitFor();
    await expectNoShift(page, 'revealed');
  });

  test('reveal: gone', async () => {
    const owner = new OnetimeClient({ baseUrl: pages.baseUrl, apiKey: (await api().createKey()).key });
    const { link } = await owner.share('hunter2');
    await owner.revoke(link);
    const page = await opened(link);
    await page.getByTestId('reveal-button').click();
    await page.getByTestId('secret-gone').waitFor();
    await expectNoShift(page, 'gone');
  });

  test('request: the empty page, then its links', async () => {
    const page = await opened(`${pages.siteUrl}/request`);
    await expectNoShift(page, 'request');
    await page.getByTestId('request-submit').click();
    await page.getByTestId('request-link').waitFor();
    await expectNoShift(page, 'request, links ready');
  });

  test('fulfil: the note and the form', async () => {
    const page = await opened((await api().request({ note: 'The staging password, please' })).requestLink);
    await page.getByTestId('fulfil-note').waitFor();
    await expectNoShift(page, 'fulfil');
  });

  test('receive: not answered yet, then answered', async () => {
    const { requestLink, receiveLink } = await api().request({ note: 'The staging password, please' });
    const waiting = await opened(receiveLink);
    await waiting.getByTestId('receive-check').waitFor();
    await expectNoShift(waiting, 'receive, not answered yet');
    await api().fulfil(requestLink, 'hunter2');
    const answered = await opened(receiveLink);
    await answered.getByTestId('receive-reveal').waitFor();
    await expectNoShift(answered, 'receive, answered');
  });
});
