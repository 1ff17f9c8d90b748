/**
 * When a call to an AWS service is tried again, and after how long: the AWS SDK's standard retry
 * mode (3 attempts; exponential backoff with full jitter from 100 ms, or 500 ms when throttled,
 * capped at 20 s), for the calls our functions make without the SDK (lambdas/aws/aws-json-client).
 */

export const MAX_ATTEMPTS = 3;
const BASE_DELAY_MS = 100;
const THROTTLED_BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 20_000;

/** Error codes the SDK treats as throttling. */
const THROTTLING_CODES = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);

/** Error codes and statuses the SDK treats as transient. */
const TRANSIENT_CODES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'InternalServerError', 'ServiceUnavailable']);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
/** Connection failures worth another attempt: the request may not have reached the service. */
const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

export type Failure =
  | { kind: 'service'; code: string; status: number }
  | { kind: 'network'; code: string | undefined };

export const isThrottling = (failure: Failure): boolean =>
  failure.kind === 'service' && (failure.status === 429 || THROTTLING_CODES.has(failure.code));

export function isRetryable(failure: Failure): boolean {
  if (failure.kind === 'network') return failure.code !== undefined && TRANSIENT_NETWORK_CODES.has(failure.code);
  return isThrottling(failure) || TRANSIENT_CODES.has(failure.code) || TRANSIENT_STATUSES.has(failure.status);
}

/** The pause before attempt `attempt + 1` (attempt counts from 1). */
export function retryDelayMs(failure: Failure, attempt: number, random: () => number = Math.random): number {
  const base = isThrottling(failure) ? THROTTLED_BASE_DELAY_MS : BASE_DELAY_MS;
  return Math.floor(random() * Math.min(MAX_DELAY_MS, base * 2 ** (attempt - 1)));
}
