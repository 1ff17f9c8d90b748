import { KEY_CREATION_LIMIT } from '#contract/limits';
import { keyCreationWindow } from '#lambdas/rules/key-creation-window';

const HOUR = KEY_CREATION_LIMIT.windowMs;
const now = 1_750_000_000_000;
const limit = 20;

describe('keyCreationWindow', () => {
  test('counts only the attempts of the last hour', () => {
    expect(keyCreationWindow([now - HOUR - 1, now - HOUR, now - HOUR + 1, now - 10, now], now, limit)).toMatchObject({ count: 3 });
  });

  test('under the limit: the next attempt fits now', () => {
    expect(keyCreationWindow([now - 10, now], now, limit)).toEqual({ count: 2, resetAt: now });
  });

  test('over the limit: resetAt is when enough attempts have left the hour for one more to fit', () => {
    // 21 earlier attempts, one per minute from 50 minutes ago, plus this one: 22 > 20.
    const earlier = Array.from({ length: 21 }, (_, i) => now - 50 * 60_000 + i * 60_000);
    const window = keyCreationWindow([now, ...earlier].reverse(), now, limit);
    expect(window.count).toBe(22);
    // The next attempt fits when at most 19 remain: three must leave, the third oldest last.
    expect(window.resetAt).toBe((earlier[2] as number) + HOUR);
    const later = [...earlier, now].filter((at) => at > window.resetAt - HOUR);
    expect(later.length + 1).toBe(limit);
  });
});
