import { startedForThisFile } from '#test/support/for-this-file';
import { startPagesUnderTest, type PagesUnderTest } from '#test/support/browser';

/** Local mode and Chromium take well over a minute to start on a busy machine (startPagesUnderTest). */
const START_TIMEOUT_MS = 180_000;

/**
 * Starts the pages under test (local mode with `env`, and Chromium) before the file's tests,
 * handing them to `onStarted`, and stops them after.
 */
export function pagesUnderTestForThisFile(onStarted: (pages: PagesUnderTest) => void, env: Record<string, string> = {}): void {
  startedForThisFile(() => startPagesUnderTest(env), onStarted, START_TIMEOUT_MS);
}
