import fc from 'fast-check';
import { readDeliveryConfig } from '../../../lambdas/core/config';
import { MAX_RETRY_BASE_MS, WEBHOOK_RETRIES } from '../../../lambdas/definitions/webhooks';
import { delayAfterFailedAttempt } from '../../../lambdas/webhooks/delivery';

describe('readDeliveryConfig: WEBHOOK_RETRY_BASE_MS', () => {
  test.each([
    ['unset', {}],
    ['empty', { WEBHOOK_RETRY_BASE_MS: '' }],
  ])('%s: the first retry comes after 1000 ms', (_case, env) => {
    expect(readDeliveryConfig(env).retryBaseMs).toBe(1_000);
  });

  test('a positive integer is taken as is', () => {
    expect(readDeliveryConfig({ WEBHOOK_RETRY_BASE_MS: '60000' }).retryBaseMs).toBe(60_000);
    expect(readDeliveryConfig({ WEBHOOK_RETRY_BASE_MS: '1' }).retryBaseMs).toBe(1);
  });

  test('needs no SITE_URL, which the delivery function does not have', () => {
    expect(() => readDeliveryConfig({})).not.toThrow();
  });

  test.each(['0', '-1000', '1.5', 'ten', '1000ms', ' ', '1e3', '0x3e8', String(MAX_RETRY_BASE_MS + 1)])(
    '%j is refused, naming the variable and the range',
    (value) => {
      expect(() => readDeliveryConfig({ WEBHOOK_RETRY_BASE_MS: value })).toThrow(
        `WEBHOOK_RETRY_BASE_MS must be an integer number of milliseconds from 1 to ${MAX_RETRY_BASE_MS}`,
      );
    },
  );

  test('the largest base whose last retry still fits SQS\'s 12-hour visibility limit is accepted', () => {
    expect(readDeliveryConfig({ WEBHOOK_RETRY_BASE_MS: String(MAX_RETRY_BASE_MS) }).retryBaseMs).toBe(MAX_RETRY_BASE_MS);
  });
});

describe('readDeliveryConfig: WEBHOOK_ALLOW_LOOPBACK', () => {
  test('exactly "1" lets deliveries reach this machine', () => {
    expect(readDeliveryConfig({ WEBHOOK_ALLOW_LOOPBACK: '1' }).webhookAllowLoopback).toBe(true);
  });

  test.each([undefined, '', '0', 'true', 'yes', ' 1', '01'])('%j does not', (value) => {
    expect(readDeliveryConfig({ WEBHOOK_ALLOW_LOOPBACK: value }).webhookAllowLoopback).toBe(false);
  });
});

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
