import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamo } from '../lambdas/store/dynamo';

/**
 * Counts the DynamoDB calls each request makes (one per command, whatever the SDK's retries),
 * so the local log shows every route's round trips as they happen.
 */
const currentRequest = new AsyncLocalStorage<{ calls: number }>();

export function countDynamoDbCalls(): void {
  dynamo().middlewareStack.add(
    (next) => (args) => {
      const request = currentRequest.getStore();
      if (request) request.calls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countDynamoDbCalls' },
  );
}

export async function withCallCount<T>(work: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const request = { calls: 0 };
  const result = await currentRequest.run(request, work);
  return { result, calls: request.calls };
}
