import type { BrowserContext, Page } from 'playwright-core';
import { API_BASE_PATH } from '#contract/limits';
import vectors from '../../client/request-test-vectors.json';
import { api, createKey } from '../support/api';
import type { PagesUnderTest } from '../support/browser';
import { pagesUnderTestForThisFile } from './support/pages-for-this-file';

/**
 * A secret request's pages in Chromium, against local mode: the requester, the sender and the
 * requester again each in a browser of their own; a sender's page refusing a swapped public key;
 * the receive page opening the envelope version 3 vectors made with node:crypto.
 */

let pages: PagesUnderTest;
pagesUnderTestForThisFile((started) => (pages = started));

// Once the pages have stopped (the hooks above run first): no page broke its Content-Security-Policy or threw.
afterAll(() => {
  expect(pages.problems).toEqual({ cspViolations: [], errors: [] });
});

async function askInPage(context: BrowserContext, note: string): Promise<{ requestLink: string; receiveLink: string; page: Page }> {
  const page = await context.newPage();
  await page.goto(`${pages.siteUrl}/request`);
  await page.getByTestId('request-note').fill(note);
  await page.getByTestId('request-ttl').selectOption('1h');
  await page.getByTestId('request-submit').click();
  await page.getByTestId('request-link').waitFor();
  return { requestLink: await page.getByTestId('request-link').inputValue(), receiveLink: await page.getByTestId('receive-link').inputValue(), page };
}

test('requester, sender and the requester again, each in a browser of their own', async () => {
  const requester = await pages.person();
  const { requestLink, receiveLink, page: asked } = await askInPage(requester, 'The staging database password, please');
  expect(requestLink).toMatch(new RegExp(`^${pages.siteUrl}/r/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}$`));
  expect(receiveLink).toMatch(new RegExp(`^${pages.siteUrl}/r/[A-Za-z0-9_-]{22}/receive#[A-Za-z0-9_-]{43}\\.svc_[A-Za-z0-9]{32}$`));
  // Every control is labelled; the page says which link to send and which to keep.
  const unlabelled = await asked.$$eval('input:not([hidden]), select, textarea', (controls: { id: string; labels: ArrayLike<unknown> }[]) =>
    controls.filter((control) => control.labels.length === 0).map((control) => control.id),
  );
  expect(unlabelled).toEqual([]);
  await expect(asked.getByText('Send this link to the person who should answer').isVisible()).resolves.toBe(true);
  await expect(asked.getByText('Keep this link to yourself').isVisible()).resolves.toBe(true);

  // Before anyone answers, the receive link says so (in a fresh browser: the link carries all it needs).
  const later = await pages.person();
  const waiting = await later.newPage();
  await waiting.goto(receiveLink);
  await waiting.getByTestId('receive-check').waitFor();
  await expect(waiting.getByTestId('receive-state').textContent()).resolves.toMatch(/^Not answered yet/);
  await expect(waiting.getByTestId('receive-reveal').isVisible()).resolves.toBe(false);

  const sender = await pages.person();
  const answering = await sender.newPage();
  await answering.goto(requestLink);
  await answering.getByTestId('fulfil-note').waitFor();
  await expect(answering.getByTestId('fulfil-note').textContent()).resolves.toBe('The staging database password, please');
  await expect(answering.getByText('Public: anyone with the link can read it.', { exact: true }).isVisible()).resolves.toBe(true);
  await answering.getByTestId('fulfil-text').fill('hunter2 ✓\n');
  await answering.getByTestId('fulfil-submit').click();
  await answering.getByTestId('fulfil-sent').waitFor();
  // A second answer through the same link is refused.
  const again = await sender.newPage();
  await again.goto(requestLink);
  await again.getByTestId('error').waitFor();
  await expect(again.getByTestId('error').textContent()).resolves.toMatch(/already answered/);

  await waiting.getByTestId('receive-check').click();
  await waiting.getByTestId('receive-reveal').waitFor();
  await expect(waiting.getByTestId('receive-state').textContent()).resolves.toMatch(/^The answer has arrived/);
  await waiting.getByTestId('receive-reveal').click();
  await waiting.getByTestId('secret-text').waitFor();
  await expect(waiting.getByTestId('secret-text').textContent()).resolves.toBe('hunter2 ✓\n');
  // The private key is gone from the address bar once read; a reload finds nothing left.
  expect(new URL(waiting.url()).hash).toBe('');
  const reopened = await later.newPage();
  await reopened.goto(receiveLink);
  await reopened.getByText(/^There is nothing to read/).waitFor();
  await Promise.all([requester.close(), later.close(), sender.close()]);
});

test("the sender's page refuses to encrypt when the service's answer carries another public key", async () => {
  const requester = await pages.person();
  const { requestLink } = await askInPage(requester, 'swap me');
  const id = new URL(requestLink).pathname.split('/').pop() ?? '';
  const sender = await pages.person();
  const page = await sender.newPage();
  const posted: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/requests/')) posted.push(request.url());
  });
  // A service (or anything between) answering with a key of its own.
  await page.route(`**${API_BASE_PATH}/requests/${id}`, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    return route.fulfill({ response, json: { ...body, publicKey: vectors.recipientPublicKeyBase64Url } });
  });
  await page.goto(requestLink);
  await page.getByTestId('error').waitFor();
  await expect(page.getByTestId('error').textContent()).resolves.toMatch(/does not match its link, so nothing was encrypted or sent/);
  await expect(page.getByTestId('fulfil-text').isVisible()).resolves.toBe(false);
  expect(posted).toEqual([]);
  await Promise.all([requester.close(), sender.close()]);
});

test.each(
  vectors.vectors
    .filter((vector) => vector.field === 'data' && vector.plaintextUtf8 !== undefined && vector.plaintextUtf8 !== '')
    .map((vector) => [vector.name, vector] as const),
)('the receive page opens the node:crypto vector "%s"', async (_, vector) => {
  const { key } = await createKey(undefined, pages.baseUrl);
  const created = await api<{ id: string }>('POST', '/requests', {
    key,
    json: { publicKey: vectors.recipientPublicKeyBase64Url },
    baseUrl: pages.baseUrl,
  });
  const id = created.body.id;
  expect((await api('POST', `/requests/${id}`, { key, json: { data: vector.sent }, baseUrl: pages.baseUrl })).status).toBe(201);
  const scalar = Buffer.from(vectors.recipientScalarHex, 'hex').toString('base64url');
  const context = await pages.person();
  const page = await context.newPage();
  await page.goto(`${pages.siteUrl}/r/${id}/receive#${scalar}.${key}`);
  await page.getByTestId('receive-reveal').click();
  await page.getByTestId('secret-text').waitFor();
  await expect(page.getByTestId('secret-text').textContent()).resolves.toBe(vector.plaintextUtf8);
  await context.close();
});
