import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { SQSEvent } from 'aws-lambda';
import { telemetryMiddlewares } from '#lambdas/telemetry/middleware';
import { logger } from '#lambdas/telemetry/powertools';
// The SQS client built at load, as the pipeline's functions build it.
import '#lambdas/webhooks/queue/sqs';
import { floorCalls, type FloorEvent } from './calls';

/** A pipeline function's house floor: its calls (SQS client built at load) as one record of Powertools' batch processor, inside middy. */
export const handler = middy<SQSEvent & { floor: FloorEvent }>()
  .use(telemetryMiddlewares())
  .handler(async (event, context) => {
    const record = () => floorCalls(event.floor);
    const response = await processPartialResponse(event, record, new BatchProcessor(EventType.SQS), { context });
    logger.info('house floor batch');
    return response;
  });
