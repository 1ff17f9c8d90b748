import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { telemetryMiddlewares } from '#lambdas/telemetry/middleware';
import { logger } from '#lambdas/telemetry/powertools';
import { FLOOR_RESPONSE, floorDynamoDbCalls, type FloorEvent } from './calls';

/**
 * The house floor of a route: its floor (the same SDK clients and calls), inside what the house
 * rules give every route before its own work: middy with the JSON body parser and the telemetry
 * middlewares (Powertools' Logger and Metrics), one log line. `validate` is where a route with a
 * body checks it with zod (house-body.ts); this module imports no zod.
 */
export interface HouseFloorEvent {
  headers: Record<string, string>;
  body: string | null;
  floor: FloorEvent;
}

export const houseRouteFloor = (validate: (body: unknown) => void) =>
  middy<HouseFloorEvent>()
    .use(telemetryMiddlewares())
    .use(httpJsonBodyParser({ disableContentTypeError: true }))
    .handler(async (event) => {
      if (event.body !== null) validate(event.body);
      await floorDynamoDbCalls(event.floor.dynamodb);
      logger.info('cold-start floor request');
      return FLOOR_RESPONSE;
    });
