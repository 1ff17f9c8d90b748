import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '#lambdas/webhooks/queue/sqs';
import { FLOOR_RESPONSE, firstDynamoDbCall, type FloorEvent } from './calls';

/**
 * The cold-start floor of a function that also builds the SQS client (`lambdas/webhooks/queue/sqs.ts`, at
 * module load): the first DynamoDB call, then one SendMessage where the function sends one first.
 */
export async function handler(event: FloorEvent): Promise<typeof FLOOR_RESPONSE> {
  await firstDynamoDbCall(event.dynamodb);
  if (event.sqsQueueUrl !== undefined) await sqs.send(new SendMessageCommand({ QueueUrl: event.sqsQueueUrl, MessageBody: '{}' }));
  return FLOOR_RESPONSE;
}
