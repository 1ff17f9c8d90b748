import { BatchGetCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KEYS_TABLE } from '#lambdas/definitions/tables';
import { dynamo, tableName } from '#lambdas/store/dynamo';

/**
 * The first DynamoDB call of a function, made by its cold-start floor through the functions' own
 * document client (`lambdas/store/dynamo.ts`: same settings, built at module load). The floor
 * reads or writes an item of its own in the keys table, one no API key can hash to.
 */
export type FirstDynamoDbCall = 'GetItem' | 'UpdateItem' | 'BatchGetItem';

/** What a floor sample is handed instead of the function's event. */
export interface FloorEvent {
  dynamodb: FirstDynamoDbCall;
  /** Where the floor sends its one SQS message, for a function whose first calls include one. */
  sqsQueueUrl?: string;
}

const FLOOR_KEY = { pk: 'cold-start-floor' };

export async function firstDynamoDbCall(call: FirstDynamoDbCall): Promise<void> {
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
    case 'BatchGetItem':
      await dynamo.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: [FLOOR_KEY], ConsistentRead: true } } }));
      return;
  }
}

export const FLOOR_RESPONSE = { statusCode: 200, body: '{}' } as const;
