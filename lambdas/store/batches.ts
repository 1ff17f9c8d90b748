import type { BatchGetCommandInput, BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { BATCH_REQUEST_TIMEOUT_MS } from './sdk-settings';
import { dynamo } from './dynamo';

/** DynamoDB's per-call item limits for BatchWriteItem and BatchGetItem. */
const WRITE_BATCH_ITEMS = 25;
const GET_BATCH_KEYS = 100;
const MAX_ATTEMPTS = 6;
/** Per-call options of every batch call: a longer request timeout (see BATCH_REQUEST_TIMEOUT_MS). */
const BATCH_CALL = { requestTimeout: BATCH_REQUEST_TIMEOUT_MS };

type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];
type KeyList = NonNullable<BatchGetCommandInput['RequestItems']>[string]['Keys'];

const backoff = (attempt: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 25));

function* batchesOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Writes every request, retrying what DynamoDB reports unprocessed (it may, under throttling). */
export async function batchWriteAll(table: string, requests: WriteRequests, abortSignal?: AbortSignal): Promise<void> {
  for (const batch of batchesOf(requests, WRITE_BATCH_ITEMS)) {
    let pending: WriteRequests = batch;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === MAX_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed`);
      if (attempt > 0) await backoff(attempt);
      const { UnprocessedItems } = await dynamo.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }), { ...BATCH_CALL, abortSignal });
      pending = UnprocessedItems?.[table] ?? [];
    }
  }
}

/**
 * Strongly consistent reads of every key, retrying unprocessed keys; missing items are absent.
 * `attributes`, when given, are the only ones read.
 */
export async function batchGetAll<TItem>(table: string, keys: NonNullable<KeyList>, attributes?: readonly string[]): Promise<TItem[]> {
  const projection = attributes && {
    ProjectionExpression: attributes.map((_, index) => `#a${index}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, index) => [`#a${index}`, name])),
  };
  const found: TItem[] = [];
  for (const batch of batchesOf(keys, GET_BATCH_KEYS)) {
    let pending = batch;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === MAX_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (attempt > 0) await backoff(attempt);
      const { Responses, UnprocessedKeys } = await dynamo.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true, ...projection } } }),
        BATCH_CALL,
      );
      found.push(...((Responses?.[table] ?? []) as TItem[]));
      pending = UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  return found;
}
