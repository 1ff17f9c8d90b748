import { StandardRetryStrategy } from '@smithy/core/retry';
import type { RetryErrorInfo, StandardRetryToken } from '@smithy/types';
import { SDK_MAX_ATTEMPTS } from '#lambdas/store/sdk-settings';
import { RepeatSafeRetryStrategy } from '#lambdas/store/retry-strategy';
import { conditionFailed } from '../support/dynamo';

/**
 * The retry middleware's side of the conversation (acquire a token, ask to retry after each
 * error, record a success), driven as it does for a write whose first attempt applied and whose
 * answer was lost: a 500, then the repeat's ConditionalCheckFailed.
 */
interface Strategy {
  acquireInitialRetryToken(scope: string): Promise<StandardRetryToken>;
  refreshRetryTokenForRetry(token: StandardRetryToken, errorInfo: RetryErrorInfo): Promise<StandardRetryToken>;
}

/** The SDK's error type declares `cause` narrower than Error's own `unknown`. */
const asSdkError = (error: Error): RetryErrorInfo['error'] => error as unknown as RetryErrorInfo['error'];
const lostAnswer: RetryErrorInfo = {
  errorType: 'TRANSIENT',
  error: asSdkError(Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $metadata: { httpStatusCode: 500 } })),
};
const repeatFoundItsToken: RetryErrorInfo = { errorType: 'CLIENT_ERROR', error: asSdkError(conditionFailed()) };

/** Lost answers in a row, each repeated once; how many of them the SDK still repeated. */
async function repeatedOf(strategy: Strategy, lostAnswers: number): Promise<number> {
  let repeated = 0;
  for (let n = 0; n < lostAnswers; n++) {
    const first = await strategy.acquireInitialRetryToken('');
    let retry: StandardRetryToken;
    try {
      retry = await strategy.refreshRetryTokenForRetry(first, lostAnswer);
    } catch {
      continue; // refused: no tokens left
    }
    repeated += 1;
    await expect(strategy.refreshRetryTokenForRetry(retry, repeatFoundItsToken)).rejects.toThrow();
  }
  return repeated;
}

test("the SDK's own strategy repeats 35 lost answers, not the 36th: a repeat's ConditionalCheckFailed gives nothing back", async () => {
  const standard = new StandardRetryStrategy(SDK_MAX_ATTEMPTS);
  expect(await repeatedOf(standard, 50)).toBe(35);
  expect(standard.getCapacity()).toBeLessThan(14);
});

test('ours repeats every one of 100 lost answers, and its quota stays full', async () => {
  const repeatSafe = new RepeatSafeRetryStrategy(SDK_MAX_ATTEMPTS);
  expect(await repeatedOf(repeatSafe, 100)).toBe(100);
  expect(repeatSafe.capacity()).toBe(500);
});

test('failures still spend the quota: an outage stops the repeats as the SDK intends', async () => {
  const repeatSafe = new RepeatSafeRetryStrategy(SDK_MAX_ATTEMPTS);
  let refused = false;
  for (let n = 0; n < 50 && !refused; n++) {
    const first = await repeatSafe.acquireInitialRetryToken('');
    const retry = await repeatSafe.refreshRetryTokenForRetry(first, lostAnswer).catch(() => undefined);
    if (retry === undefined) refused = true;
    else await repeatSafe.refreshRetryTokenForRetry(retry, lostAnswer).catch(() => undefined);
  }
  expect(refused).toBe(true);
});
