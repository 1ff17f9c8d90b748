/**
 * Starts something before a test file's tests, handing it to `onStarted`, and stops it after: the
 * hook pair every file with a server, pages or receiver of its own shares.
 */
export function startedForThisFile<Started extends { stop(): Promise<void> }>(
  start: () => Promise<Started>,
  onStarted: (started: Started) => void,
  startTimeoutMs?: number,
): void {
  let started: Started | undefined;
  beforeAll(async () => {
    started = await start();
    onStarted(started);
  }, startTimeoutMs);
  afterAll(async () => {
    await started?.stop();
  });
}
