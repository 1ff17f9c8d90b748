import { DynamoDBClient, type ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { sdkClientSettings } from './sdk-settings';
import { ENV } from '../definitions/env';
import type { TableDefinition } from '../definitions/tables';

/**
 * One document client per container, built at module load (local mode sets DYNAMODB_ENDPOINT
 * before it imports any handler; on AWS the endpoint is unset). DynamoDB's own retry default of
 * the SDK (standard mode) applies: every conditional write it may repeat is safe to repeat (see
 * docs/retried-writes.md).
 */
export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient(sdkClientSettings(process.env[ENV.dynamodbEndpoint])), {
  marshallOptions: { removeUndefinedValues: true },
});

export function tableName(table: TableDefinition): string {
  const name = process.env[table.envVar];
  if (!name) throw new Error(`${table.envVar} is not set`);
  return name;
}

export const isConditionFailure = (error: unknown): error is ConditionalCheckFailedException =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * The item returned by ReturnValuesOnConditionCheckFailure. The document client unmarshalls
 * results but not exceptions, so the item arrives in DynamoDB's wire format.
 */
export const itemOfConditionFailure = <TItem>(error: ConditionalCheckFailedException): TItem | undefined =>
  error.Item ? (unmarshall(error.Item) as TItem) : undefined;

/**
 * A condition that failed on a repeat of the call: an earlier attempt ended in an error the SDK
 * retries (a 500, a throttle, a dropped connection), and DynamoDB may have applied it. The SDK
 * sets `attempts` on the error it finally throws.
 */
export const isRetriedConditionFailure = (error: unknown): error is ConditionalCheckFailedException =>
  isConditionFailure(error) && (error.$metadata.attempts ?? 1) > 1;

export const epochSeconds = (ms: number): number => Math.ceil(ms / 1000);

/** A write whose condition may fail on purpose (docs/retried-writes.md). */
type ConditionalWrite = PutCommand | UpdateCommand | DeleteCommand;

/** What a conditional write's outcome means to its caller: the item it wrote, or the one its condition failed on. */
export interface ConditionalOutcome<TItem, TResult> {
  /** The attributes the write returned (ReturnValues), if it asked for any. */
  applied: (attributes: TItem | undefined) => TResult;
  /** The item the condition failed on (ReturnValuesOnConditionCheckFailure), undefined when there is none or none was asked for. */
  refused: (old: TItem | undefined) => TResult | Promise<TResult>;
}

/** For a write whose failed condition means only that nothing is left to do. */
export const DONE_EITHER_WAY: ConditionalOutcome<unknown, void> = { applied: () => undefined, refused: () => undefined };

/** For a write whose caller needs only whether its condition held. */
export const WHETHER_IT_HELD: ConditionalOutcome<unknown, boolean> = { applied: () => true, refused: () => false };

/** One send for the three kinds of write (the client's overloads take one kind at a time). */
const sendWrite = (command: ConditionalWrite, abortSignal: AbortSignal | undefined): Promise<{ Attributes?: Record<string, unknown> }> =>
  command instanceof UpdateCommand
    ? dynamo.send(command, { abortSignal })
    : command instanceof PutCommand
      ? dynamo.send(command, { abortSignal })
      : dynamo.send(command, { abortSignal });

/** Sends a conditional write and answers what `outcome` makes of it; any error but a failed condition is thrown. */
export async function sendConditional<TItem, TResult>(
  command: ConditionalWrite,
  abortSignal: AbortSignal | undefined,
  outcome: ConditionalOutcome<TItem, TResult>,
): Promise<TResult> {
  let attributes: Record<string, unknown> | undefined;
  try {
    ({ Attributes: attributes } = await sendWrite(command, abortSignal));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return outcome.refused(itemOfConditionFailure<TItem>(error));
  }
  return outcome.applied(attributes as TItem | undefined);
}
