/** What local mode's stand-ins for Lambda's event source mappings (stream and queue pollers) share. */

/**
 * Resolves after `ms`, or as soon as `signal` aborts, so that stopping never waits out a backoff.
 * On the global setTimeout, not node:timers/promises, so that tests' fake timers drive it.
 */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

export const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

const RETRY_BACKOFF_MS = { first: 100, max: 5_000 } as const;

export interface Poller {
  stop(): Promise<void>;
}

/** The wait before trying again after `failuresInARow` (1 or more) failures: doubling, capped. */
export const backoffMs = (failuresInARow: number): number =>
  Math.min(RETRY_BACKOFF_MS.first * 2 ** Math.max(0, failuresInARow - 1), RETRY_BACKOFF_MS.max);

/** Calls `poll` until `signal` aborts; a failure is reported to `failed` and waited out, doubling, so the loop never turns busy. */
export async function pollUntilAborted(
  signal: AbortSignal,
  poll: () => Promise<void>,
  failed: (error: unknown, waitMs: number) => void,
): Promise<void> {
  for (let failuresInARow = 0; !signal.aborted;) {
    try {
      await poll();
      failuresInARow = 0;
    } catch (error) {
      if (signal.aborted) return;
      const waitMs = backoffMs(++failuresInARow);
      failed(error, waitMs);
      await sleep(waitMs, signal);
    }
  }
}

export type Invocation<Response> = { outcome: 'returned'; response: Response } | { outcome: 'threw'; error: unknown } | { outcome: 'timed out' };

/** Lambda's timeout, as far as it can be had in-process: the handler keeps running, but its batch counts as failed. */
export async function invokeWithTimeout<Response>(invoke: () => Promise<Response>, timeoutMs: number): Promise<Invocation<Response>> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Invocation<Response>>((resolve) => {
    timer = setTimeout(() => resolve({ outcome: 'timed out' }), timeoutMs);
  });
  try {
    return await Promise.race([
      // Through a promise, so that a handler throwing before its first await counts as a throw too.
      new Promise<Response>((resolve) => resolve(invoke())).then(
        (response): Invocation<Response> => ({ outcome: 'returned', response }),
        (error: unknown): Invocation<Response> => ({ outcome: 'threw', error }),
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
