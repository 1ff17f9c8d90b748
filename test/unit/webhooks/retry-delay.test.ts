import fc from 'fast-check';
import { WEBHOOK_RETRIES } from '#lambdas/definitions/webhooks';
import { delayAfterFailedAttempt } from '#lambdas/webhooks/delivery';

describe('delayAfterFailedAttempt', () => {
  test('doubles from the base before each retry, and is 0 after the last attempt', () => {
    expect([1, 2, 3, 4].map((attempt) => delayAfterFailedAttempt(attempt, 1_000))).toEqual([1_000, 2_000, 4_000, 0]);
  });

  test('for any base: base, 2×base, 4×base, then no wait', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_600_000 }), (base) => {
        expect([1, 2, 3, 4].map((attempt) => delayAfterFailedAttempt(attempt, base))).toEqual([base, 2 * base, 4 * base, 0]);
      }),
    );
  });

  test('an attempt beyond the last (a receive count SQS over-reports) waits for nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: WEBHOOK_RETRIES + 1, max: 1_000 }), fc.integer({ min: 1, max: 3_600_000 }), (attempt, base) => {
        expect(delayAfterFailedAttempt(attempt, base)).toBe(0);
      }),
    );
  });
});
