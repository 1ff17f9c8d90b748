import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { SQSEvent } from 'aws-lambda';
import { telemetryMiddlewares } from '#lambdas/telemetry/middleware';
import { logger } from '#lambdas/telemetry/powertools';
import { handler as floorHandler } from './dynamodb-and-sqs';
import type { FloorEvent } from './calls';

/**
 * The house floor of a pipeline function: its floor (the same SDK clients and calls) as the one
 * record of a batch that Powertools' batch processor hands out, inside middy with the telemetry
 * middlewares, and one log line, as the fan-out and the delivery function run theirs.
 */
export const handler = middy<SQSEvent & { floor: FloorEvent }>()
  .use(telemetryMiddlewares())
  .handler(async (event, context) => {
    const response = await processPartialResponse(event, () => floorHandler(event.floor), new BatchProcessor(EventType.SQS), { context });
    logger.info('cold-start floor batch');
    return response;
  });
