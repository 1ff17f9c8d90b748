import { startPagesUnderTest, type PagesUnderTest } from '#test/support/browser';

/** Local mode and Chromium take well over a minute to start on a busy machine (startPagesUnderTest). */
const START_TIMEOUT_MS = 180_000;

/**
 * Starts the pages under test (local mode with `env`, and Chromium) before the file's tests,
 * handing them to `onStarted`, and stops them after: the hooks every page test file shares.
 */
export function pagesUnderTestForThisFile(onStarted: (pages: PagesUnderTest) => void, env: Record<string, string> = {}): void {
  let started: PagesUnderTest | undefined;
  beforeAll(async () => {
    started = await startPagesUnderTest(env);
    onStarted(started);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await started?.stop();
  });
}
