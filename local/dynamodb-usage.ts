import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * What each request costs in DynamoDB: its calls and the capacity DynamoDB reports for them, in the
 * local log and in response headers for the benchmark and the tests that pin each route's calls.
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

/** Read commands, by name (the document client's GetCommand as the client's GetItemCommand). */
const READ_COMMAND = /^(Get|BatchGet|Query|Scan|TransactGet)/;

/** What a request that reaches no handler costs. */
export const noDynamoDbUsage = (): DynamoDbUsage => ({ calls: 0, readUnits: 0, writeUnits: 0 });

const currentRequest = new AsyncLocalStorage<DynamoDbUsage>();

/** Failed conditional writes consume capacity too, but DynamoDB reports none in the exception: they count as calls only. */
function add(usage: DynamoDbUsage, commandName: string, reported: ConsumedCapacity | ConsumedCapacity[] | undefined): void {
  for (const capacity of [reported ?? []].flat()) {
    const units = capacity.CapacityUnits ?? 0;
    const isRead = READ_COMMAND.test(commandName);
    usage.readUnits += capacity.ReadCapacityUnits ?? (isRead ? units : 0);
    usage.writeUnits += capacity.WriteCapacityUnits ?? (isRead ? 0 : units);
  }
}

/** An SDK middleware on the functions' document client (`dynamo`): local mode only, never in a bundle. */
export function measureDynamoDbUsage(dynamo: DynamoDBDocumentClient): void {
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const usage = currentRequest.getStore();
      if (!usage) return next(args);
      usage.calls += 1;
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] };
      add(usage, context.commandName ?? '', output.ConsumedCapacity);
      return result;
    },
    // At `initialize`, before the retry middleware: one count per command, whatever its retries.
    { step: 'initialize', name: 'measureDynamoDbUsage' },
  );
}

export async function withDynamoDbUsage<T>(work: () => Promise<T>): Promise<{ result: T; usage: DynamoDbUsage }> {
  const usage = noDynamoDbUsage();
  const result = await currentRequest.run(usage, work);
  return { result, usage };
}
