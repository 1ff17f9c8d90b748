import { KEY_CREATION_LIMIT } from '#contract/limits';

/** POST /keys attempts of one client address within the last KEY_CREATION_LIMIT window. */
export interface KeyCreationWindow {
  /** Attempts in the last window, this one included. */
  count: number;
  /** When the oldest attempt that matters leaves the window. */
  resetAt: number;
}

/** The window of an address's log of attempts (ms timestamps, in any order) as it stands at `now`. */
export function keyCreationWindow(log: readonly number[], now: number, limit: number): KeyCreationWindow {
  const recent = log.filter((at) => at > now - KEY_CREATION_LIMIT.windowMs).sort((a, b) => a - b);
  // A new attempt fits once all but limit - 1 of the recent ones have left the window.
  const oldestThatMustLeave = recent[recent.length - limit];
  return {
    count: recent.length,
    resetAt: oldestThatMustLeave === undefined ? now : oldestThatMustLeave + KEY_CREATION_LIMIT.windowMs,
  };
}
