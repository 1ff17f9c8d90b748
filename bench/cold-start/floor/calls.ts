import http from 'node:http';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KEYS_TABLE } from '#lambdas/definitions/tables';
import { dynamo, tableName } from '#lambdas/store/dynamo';

/**
 * The calls a function cannot do without, made by its cold-start floor through the functions' own
 * document client (`lambdas/store/dynamo.ts`: same settings, built at module load), in the order
 * the function makes them. A route that must count the request and then write pays each
 * command's first use (its serializer, its response parser) however lean its own code; the floor
 * pays it too. The floor reads and writes items of its own in the keys table, ones no API key can
 * hash to.
 */
export type FloorDynamoDbCall = 'GetItem' | 'UpdateItem' | 'PutItem' | 'DeleteItem' | 'BatchGetItem';

/** What a floor sample is handed instead of the function's event. */
export interface FloorEvent {
  dynamodb: readonly FloorDynamoDbCall[];
  /** Where the floor sends its one SQS message, for a function whose calls include one. */
  sqsQueueUrl?: string;
  /** Where the floor posts `{}`, for a function whose work ends in one HTTP POST (the webhook delivery). */
  postUrl?: string;
}

const FLOOR_KEY = { pk: 'cold-start-floor' };
const FLOOR_WRITTEN_KEY = { pk: 'cold-start-floor-written' };

async function floorDynamoDbCall(call: FloorDynamoDbCall): Promise<void> {
  const TableName = tableName(KEYS_TABLE);
  switch (call) {
    case 'GetItem':
      await dynamo.send(new GetCommand({ TableName, Key: FLOOR_KEY }));
      return;
    case 'UpdateItem':
      await dynamo.send(
        new UpdateCommand({
          TableName,
          Key: FLOOR_KEY,
          UpdateExpression: 'SET calls = if_not_exists(calls, :zero) + :one',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return;
    case 'PutItem':
      await dynamo.send(new PutCommand({ TableName, Item: { ...FLOOR_WRITTEN_KEY, at: Date.now() } }));
      return;
    case 'DeleteItem':
      await dynamo.send(new DeleteCommand({ TableName, Key: FLOOR_WRITTEN_KEY }));
      return;
    case 'BatchGetItem':
      await dynamo.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: [FLOOR_KEY], ConsistentRead: true } } }));
      return;
  }
}

export async function floorDynamoDbCalls(calls: readonly FloorDynamoDbCall[]): Promise<void> {
  for (const call of calls) await floorDynamoDbCall(call);
}

/** One POST of `{}`, answered and read to its end: what a delivery that succeeds cannot skip. */
export function floorPost(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '2' }, agent: false },
      (response) => {
        response.resume();
        response.once('end', resolve);
      },
    );
    outgoing.once('error', reject);
    outgoing.end('{}');
  });
}

export const FLOOR_RESPONSE = { statusCode: 200, body: '{}' } as const;
