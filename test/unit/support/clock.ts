/**
 * Pins Date.now, which the handlers read for the request time, without faking timers (middy's
 * timeout guard and the SDK retry backoff keep real timers). Undo with jest.restoreAllMocks().
 */
export function pinClock(start: number): { now: () => number; set: (at: number) => void } {
  let current = start;
  jest.spyOn(Date, 'now').mockImplementation(() => current);
  return { now: () => current, set: (at) => (current = at) };
}
