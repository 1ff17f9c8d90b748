import { isRetryable, retryDelayMs, type Failure } from '../../../lambdas/aws/retry-policy';

const service = (code: string, status = 400): Failure => ({ kind: 'service', code, status });

test.each([
  [service('ProvisionedThroughputExceededException'), true],
  [service('ThrottlingException'), true],
  [service('RequestLimitExceeded'), true],
  [service('Anything', 429), true],
  [service('InternalServerError', 500), true],
  [service('ServiceUnavailable', 503), true],
  [{ kind: 'network', code: 'ECONNRESET' } as Failure, true],
  [service('ConditionalCheckFailedException'), false],
  [service('ValidationException'), false],
  [service('ResourceNotFoundException'), false],
  [{ kind: 'network', code: 'ERR_INVALID_URL' } as Failure, false],
])('%o retryable: %s', (failure, retryable) => {
  expect(isRetryable(failure)).toBe(retryable);
});

test('delays grow exponentially with full jitter, from 100 ms, or 500 ms when throttled, capped at 20 s', () => {
  const most = () => 0.999_999;
  expect([1, 2, 3].map((attempt) => retryDelayMs(service('InternalServerError', 500), attempt, most))).toEqual([99, 199, 399]);
  expect([1, 2, 3].map((attempt) => retryDelayMs(service('ThrottlingException'), attempt, most))).toEqual([499, 999, 1999]);
  expect(retryDelayMs(service('ThrottlingException'), 10, most)).toBe(19_999);
  expect(retryDelayMs(service('ThrottlingException'), 3, () => 0)).toBe(0);
});
