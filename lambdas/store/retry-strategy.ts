import { StandardRetryStrategy } from '@smithy/core/retry';
import type { RetryErrorInfo, RetryStrategyV2, StandardRetryToken } from '@smithy/types';

/**
 * The SDK's standard retries (same attempts, backoff and 500-token quota), except that a retried
 * attempt which DynamoDB answers with ConditionalCheckFailed gives back what the retry cost, as a
 * success does. Our repeat-safe writes end that way on purpose whenever an earlier attempt
 * applied (docs/retried-writes.md): DynamoDB answered, it is not failing. Without this, each such
 * repeat kept 14 tokens for good, and a container stopped retrying after about 36 lost answers
 * (docs/decisions/sdk-retry-quota.md).
 */
export class RepeatSafeRetryStrategy implements RetryStrategyV2 {
  private readonly standard: StandardRetryStrategy;

  constructor(maxAttempts: number) {
    this.standard = new StandardRetryStrategy(maxAttempts);
  }

  acquireInitialRetryToken(retryTokenScope: string): Promise<StandardRetryToken> {
    return this.standard.acquireInitialRetryToken(retryTokenScope);
  }

  refreshRetryTokenForRetry(token: StandardRetryToken, errorInfo: RetryErrorInfo): Promise<StandardRetryToken> {
    if (token.getRetryCount() > 0 && errorInfo.error?.name === 'ConditionalCheckFailedException') this.standard.recordSuccess(token);
    return this.standard.refreshRetryTokenForRetry(token, errorInfo);
  }

  recordSuccess(token: StandardRetryToken): void {
    this.standard.recordSuccess(token);
  }

  /** Tokens left in the quota. */
  capacity(): number {
    return this.standard.getCapacity();
  }
}
