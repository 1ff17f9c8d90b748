/** Resolves at `at` (ms since the epoch), or at once if that time has passed. */
export const sleepUntil = (at: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
