import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import middy from '@middy/core';
import type { SQSEvent } from 'aws-lambda';
import { telemetryMiddlewares } from '#lambdas/telemetry/middleware';
import { logger } from '#lambdas/telemetry/powertools';
import { sqs } from '#lambdas/webhooks/queue/sqs';
import { floorCalls, type FloorEvent } from './calls';

/** A pipeline function's house floor: its calls (SQS client built at load) as one record of Powertools' batch processor, inside middy. */
const sqsCall = (queueUrl: string | undefined) => (command: string) => {
  if (command !== 'SendMessageCommand' && command !== 'SendMessageBatchCommand')
    return Promise.reject(new Error(`the house floor makes no ${command}`));
  return sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{}' }));
};

export const handler = middy<SQSEvent & { floor: FloorEvent }>()
  .use(telemetryMiddlewares())
  .handler(async (event, context) => {
    const record = () => floorCalls(event.floor, sqsCall(event.floor.sqsQueueUrl));
    const response = await processPartialResponse(event, record, new BatchProcessor(EventType.SQS), { context });
    logger.info('house floor batch');
    return response;
  });
