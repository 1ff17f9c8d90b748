import http from 'node:http';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KEYS_TABLE } from '#lambdas/definitions/tables';
import { dynamo, tableName } from '#lambdas/store/dynamo';

/**
 * A house floor's SDK calls, through the functions' own document client, in the order the function
 * sent them (bench/calls.ts): each command's first use costs the floor what it costs the function.
 * On items of its own in the keys table, ones no API key can hash to.
 */

/** What a floor sample is handed instead of the function's event. */
export interface FloorEvent {
  /** Command names as the function sent them, e.g. UpdateItemCommand. */
  commands: readonly string[];
  /** Where a floor that builds the SQS client sends its messages. */
  sqsQueueUrl?: string;
  /** Where the floor posts `{}`, for a function whose work ends in one HTTP POST (the webhook delivery). */
  postUrl?: string;
}

const FLOOR_KEY = { pk: 'cold-start-floor' };
const WRITTEN_KEY = { pk: 'cold-start-floor-written' };

const DYNAMODB_CALLS: Readonly<Record<string, (TableName: string) => Promise<unknown>>> = {
  GetItemCommand: (TableName) => dynamo.send(new GetCommand({ TableName, Key: FLOOR_KEY })),
  UpdateItemCommand: (TableName) =>
    dynamo.send(
      new UpdateCommand({
        TableName,
        Key: FLOOR_KEY,
        UpdateExpression: 'SET calls = if_not_exists(calls, :zero) + :one',
        ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  PutItemCommand: (TableName) => dynamo.send(new PutCommand({ TableName, Item: { ...WRITTEN_KEY, at: Date.now() } })),
  DeleteItemCommand: (TableName) => dynamo.send(new DeleteCommand({ TableName, Key: WRITTEN_KEY })),
  BatchGetItemCommand: (TableName) =>
    dynamo.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: [FLOOR_KEY], ConsistentRead: true } } })),
  BatchWriteItemCommand: (TableName) =>
    dynamo.send(new BatchWriteCommand({ RequestItems: { [TableName]: [{ PutRequest: { Item: { ...WRITTEN_KEY } } }] } })),
};

/** Makes the DynamoDB and SQS calls; fails on one it cannot make, so a function's new kind of call shows here first. */
export async function floorCalls(event: FloorEvent): Promise<void> {
  for (const command of event.commands) {
    const call = DYNAMODB_CALLS[command];
    await (call ? call(tableName(KEYS_TABLE)) : sqsCall(command, event.sqsQueueUrl));
  }
  if (event.postUrl !== undefined) await floorPost(event.postUrl);
}

/**
 * The SQS client is imported at first use, so a route floor without one (most routes) does not load
 * it; kept after that, so later calls do not pay the module loader's lookup a function never makes.
 */
let sqsModules: Promise<[typeof import('@aws-sdk/client-sqs'), typeof import('#lambdas/webhooks/queue/sqs')]> | undefined;
async function sqsCall(command: string, QueueUrl: string | undefined): Promise<unknown> {
  if (command !== 'SendMessageCommand' && command !== 'SendMessageBatchCommand') throw new Error(`the house floor makes no ${command}`);
  sqsModules ??= Promise.all([import('@aws-sdk/client-sqs'), import('#lambdas/webhooks/queue/sqs')]);
  const [{ SendMessageCommand }, { sqs }] = await sqsModules;
  return sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: '{}' }));
}

/** One POST of `{}`, answered and read to its end: what a delivery that succeeds cannot skip. */
function floorPost(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': '2' };
    const outgoing = http.request(url, { method: 'POST', headers, agent: false }, (response) => {
      response.resume();
      response.once('end', resolve);
    });
    outgoing.once('error', reject);
    outgoing.end('{}');
  });
}

export const FLOOR_RESPONSE = { statusCode: 200, body: '{}' } as const;
