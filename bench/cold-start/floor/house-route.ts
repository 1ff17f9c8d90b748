import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
// zod/mini, as the routes import it (lambdas/http/request-bodies/).
import * as z from 'zod/mini';
import { telemetryMiddlewares } from '#lambdas/telemetry/middleware';
import { logger } from '#lambdas/telemetry/powertools';
import { FLOOR_RESPONSE, floorCalls, type FloorEvent } from './calls';

/** A route's house floor: its calls inside middy with the JSON body parser, Powertools' Logger and Metrics, a zod check, one log line. */
interface HouseFloorEvent {
  headers: Record<string, string>;
  body: string | null;
  floor: FloorEvent;
}

const anyObject = z.looseObject({});

export const handler = middy<HouseFloorEvent>()
  .use(telemetryMiddlewares())
  .use(httpJsonBodyParser({ disableContentTypeError: true }))
  .handler(async (event) => {
    if (event.body !== null) anyObject.parse(event.body);
    await floorCalls(event.floor);
    logger.info('house floor request');
    return FLOOR_RESPONSE;
  });
