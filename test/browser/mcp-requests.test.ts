import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createKey } from '../support/api';
import type { PagesUnderTest } from '../support/browser';
import { answerOf, leaked, startMcp, type McpUnderTest } from '../support/mcp';
import { pagesUnderTestForThisFile } from './support/pages-for-this-file';

/**
 * An assistant asks a person for a secret through `onetime mcp`: while receive_secret waits, the
 * person answers the request link in Chromium, and the file then holds exactly what they typed,
 * which no tool result and nothing on the server's stderr carries.
 */

const TYPED = 'pg://admin:S3cr3t-typed ✓@db.internal/prod\nsecond line\n';

let pages: PagesUnderTest;
pagesUnderTestForThisFile((started) => (pages = started));

let folder: string;
let mcp: McpUnderTest;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onetime-mcp-pages-'));
  const { key } = await createKey(undefined, pages.baseUrl);
  mcp = await startMcp({ ONETIME_API_URL: pages.baseUrl, ONETIME_API_KEY: key, ONETIME_STATE_DIR: path.join(folder, 'state') });
});
afterAll(async () => {
  await mcp?.close();
  await rm(folder, { recursive: true, force: true });
  expect(pages.problems).toEqual({ cspViolations: [], errors: [] });
});

test('a person answers in the pages while receive_secret waits; the file holds what they typed', async () => {
  const requested = answerOf(await mcp.call('request_secret', { note: 'The production database URL, please' }));
  const target = path.join(folder, 'answer.txt');
  const receiving = mcp.call('receive_secret', { request_id: requested.request_id, to_file: target, wait_seconds: 120 });

  const person = await pages.person();
  const page = await person.newPage();
  await page.goto(String(requested.request_link));
  await page.getByTestId('fulfil-note').waitFor();
  await expect(page.getByTestId('fulfil-note').textContent()).resolves.toBe('The production database URL, please');
  await page.getByTestId('fulfil-text').fill(TYPED);
  await page.getByTestId('fulfil-submit').click();
  await page.getByTestId('fulfil-sent').waitFor();
  await person.close();

  expect((await receiving).structuredContent).toEqual({ state: 'fulfilled', bytes: Buffer.byteLength(TYPED), file: target });
  expect(await readFile(target, 'utf8')).toBe(TYPED);
  expect(leaked([TYPED, 'S3cr3t-typed'])).toEqual([]);
});
