import { DEFAULT_RETRY_SETTINGS, isRetryable, retryDelayMs, type Failure } from '../../../lambdas/aws/retry-policy';

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

test('delays grow exponentially with full jitter, from the base delay, or 1 s when throttled, capped at 20 s', () => {
  const most = () => 0.999_999;
  const dynamodb = { maxAttempts: 4, baseDelayMs: 25 };
  expect([1, 2, 3].map((attempt) => retryDelayMs(service('InternalServerError', 500), attempt, dynamodb, most))).toEqual([24, 49, 99]);
  expect([1, 2].map((attempt) => retryDelayMs(service('InternalServerError', 500), attempt, DEFAULT_RETRY_SETTINGS, most))).toEqual([49, 99]);
  expect([1, 2, 3].map((attempt) => retryDelayMs(service('ThrottlingException'), attempt, dynamodb, most))).toEqual([999, 1999, 3999]);
  expect(retryDelayMs(service('ThrottlingException'), 10, dynamodb, most)).toBe(19_999);
  expect(retryDelayMs(service('ThrottlingException'), 3, dynamodb, () => 0)).toBe(0);
});
