import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../lambdas/store/dynamo';

/**
 * What each request costs in DynamoDB: its calls (one per operation, whatever the retries)
 * and the capacity DynamoDB reports for them (ReturnConsumedCapacity, asked for on every call
 * here). The local log shows it per request, and local mode's responses carry it in headers for
 * the benchmark and the tests that pin each route's calls.
 */
export interface DynamoDbUsage {
  calls: number;
  readUnits: number;
  writeUnits: number;
}

/** Response headers of local mode only: the stack's API never sends them. */
export const USAGE_HEADERS = {
  calls: 'x-local-dynamodb-calls',
  readUnits: 'x-local-dynamodb-read-units',
  writeUnits: 'x-local-dynamodb-write-units',
  handlerMs: 'x-local-handler-ms',
} as const;

/** Read operations, by DynamoDB's name for them. */
const READ_OPERATION = /^(GetItem|BatchGetItem|Query|Scan|TransactGetItems)$/;

/** What a request that reaches no handler costs. */
export const noDynamoDbUsage = (): DynamoDbUsage => ({ calls: 0, readUnits: 0, writeUnits: 0 });

const currentRequest = new AsyncLocalStorage<DynamoDbUsage>();

/**
 * Failed conditional writes consume capacity too, but DynamoDB reports none in the exception:
 * they count as calls only.
 */
function add(usage: DynamoDbUsage, operation: string, reported: ConsumedCapacity | ConsumedCapacity[] | undefined): void {
  for (const capacity of [reported ?? []].flat()) {
    const units = capacity.CapacityUnits ?? 0;
    const isRead = READ_OPERATION.test(operation);
    usage.readUnits += capacity.ReadCapacityUnits ?? (isRead ? units : 0);
    usage.writeUnits += capacity.WriteCapacityUnits ?? (isRead ? 0 : units);
  }
}

export function measureDynamoDbUsage(): void {
  dynamo().intercept(async (operation, input, send) => {
    const usage = currentRequest.getStore();
    if (!usage) return send(operation, input);
    usage.calls += 1;
    const output = await send(operation, { ...input, ReturnConsumedCapacity: 'TOTAL' });
    add(usage, operation, output.ConsumedCapacity as ConsumedCapacity | ConsumedCapacity[] | undefined);
    return output;
  });
}

export async function withDynamoDbUsage<T>(work: () => Promise<T>): Promise<{ result: T; usage: DynamoDbUsage }> {
  const usage = noDynamoDbUsage();
  const result = await currentRequest.run(usage, work);
  return { result, usage };
}
