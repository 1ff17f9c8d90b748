import fc from 'fast-check';
import { WEBHOOK_RETRIES, WEBHOOK_RETRY_BASE_MS } from '#lambdas/definitions/webhooks';
import { outcomeOfStatus } from '#lambdas/webhooks/delivery-outcome';
import { delayAfterFailedAttempt } from '#lambdas/webhooks/rules/retry-schedule';

const MINUTE = 60_000;
const base = WEBHOOK_RETRY_BASE_MS.aws;
const shortest = () => 0;
const nominal = () => 0.5;
const longest = () => 1 - Number.EPSILON;
const waits = (random: () => number, retryAfterMs?: number) =>
  [1, 2, 3, 4].map((attempt) => delayAfterFailedAttempt({ attempt, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }, base, random));

describe('delayAfterFailedAttempt', () => {
  test('the stack default waits about 1 min, 12 min and 2 h 24 min, then nothing', () => {
    expect(waits(nominal)).toEqual([MINUTE, 12 * MINUTE, 144 * MINUTE, 0]);
  });

  test('jitter stays within ±10%, and even at its shortest a receiver down for 2 hours gets the last retry', () => {
    expect(waits(shortest)).toEqual([54_000, 648_000, 7_776_000, 0]);
    expect(waits(longest)).toEqual([66_000, 792_000, 9_504_000, 0]);
    expect(waits(shortest).reduce((sum, wait) => sum + wait)).toBeGreaterThan(120 * MINUTE);
  });

  test("a receiver's Retry-After is honoured within the schedule's first and last wait", () => {
    expect(waits(nominal, 30 * MINUTE)).toEqual([30 * MINUTE, 30 * MINUTE, 30 * MINUTE, 0]);
    expect(waits(nominal, 1_000)).toEqual([MINUTE, MINUTE, MINUTE, 0]);
    expect(waits(nominal, 24 * 60 * MINUTE)).toEqual([144 * MINUTE, 144 * MINUTE, 144 * MINUTE, 0]);
  });

  test('an attempt beyond the last (a receive count SQS over-reports) waits for nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: WEBHOOK_RETRIES + 1, max: 1_000 }), fc.integer({ min: 1, max: 3_600_000 }), (attempt, anyBase) => {
        expect(delayAfterFailedAttempt({ attempt }, anyBase)).toBe(0);
      }),
    );
  });
});

describe("a receiver's Retry-After", () => {
  const now = Date.parse('2026-12-05T03:00:00Z');

  test('is read from a 429 or a 503, in seconds or as an HTTP date', () => {
    expect(outcomeOfStatus(503, '120', now)).toEqual({ ok: false, reason: 'status 503', status: 503, retryAfterMs: 120_000 });
    expect(outcomeOfStatus(429, 'Sat, 05 Dec 2026 03:30:00 GMT', now)).toMatchObject({ retryAfterMs: 30 * MINUTE });
    expect(outcomeOfStatus(429, 'Sat, 05 Dec 2026 02:00:00 GMT', now)).toMatchObject({ retryAfterMs: 0 });
  });

  test('is ignored on other statuses, and when it is neither', () => {
    expect(outcomeOfStatus(500, '120', now)).toEqual({ ok: false, reason: 'status 500', status: 500 });
    expect(outcomeOfStatus(503, 'soon', now)).toEqual({ ok: false, reason: 'status 503', status: 503 });
    expect(outcomeOfStatus(503, undefined, now)).toEqual({ ok: false, reason: 'status 503', status: 503 });
  });
});
