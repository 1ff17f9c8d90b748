/**
 * When a call to an AWS service is tried again, and after how long, for the calls our functions
 * make without the SDK (lambdas/aws/aws-json-client): as the AWS SDK version this repository pins
 * retries by default (its standard mode with the 2026 settings: exponential backoff with full
 * jitter from the service's base delay, or from 1 s when throttled, capped at 20 s; DynamoDB 4
 * attempts from 25 ms, other services 3 from 50 ms). No retry quota.
 */

export interface RetrySettings {
  maxAttempts: number;
  baseDelayMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = { maxAttempts: 3, baseDelayMs: 50 };
const THROTTLED_BASE_DELAY_MS = 1_000;
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

const isThrottling = (failure: Failure): boolean =>
  failure.kind === 'service' && (failure.status === 429 || THROTTLING_CODES.has(failure.code));

export function isRetryable(failure: Failure): boolean {
  if (failure.kind === 'network') return failure.code !== undefined && TRANSIENT_NETWORK_CODES.has(failure.code);
  return isThrottling(failure) || TRANSIENT_CODES.has(failure.code) || TRANSIENT_STATUSES.has(failure.status);
}

/** The pause before attempt `attempt + 1` (attempt counts from 1). */
export function retryDelayMs(
  failure: Failure,
  attempt: number,
  settings: RetrySettings,
  random: () => number = Math.random,
): number {
  const base = isThrottling(failure) ? THROTTLED_BASE_DELAY_MS : settings.baseDelayMs;
  return Math.floor(random() * Math.min(MAX_DELAY_MS, base * 2 ** (attempt - 1)));
}
