import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '#lambdas/webhooks/queue/sqs';
import { FLOOR_RESPONSE, floorDynamoDbCalls, floorPost, type FloorEvent } from './calls';

/**
 * The cold-start floor of a function that also builds the SQS client (`lambdas/webhooks/queue/sqs.ts`, at
 * module load): the function's DynamoDB calls, then one SendMessage where the function sends one,
 * and one POST where it delivers a webhook.
 */
export async function handler(event: FloorEvent): Promise<typeof FLOOR_RESPONSE> {
  await floorDynamoDbCalls(event.dynamodb);
  if (event.sqsQueueUrl !== undefined) await sqs.send(new SendMessageCommand({ QueueUrl: event.sqsQueueUrl, MessageBody: '{}' }));
  if (event.postUrl !== undefined) await floorPost(event.postUrl);
  return FLOOR_RESPONSE;
}
