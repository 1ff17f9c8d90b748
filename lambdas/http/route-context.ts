import type middy from '@middy/core';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Caller } from '../use-cases/authentication';
import type { IdempotentRequest } from '../use-cases/idempotency';

/** What the route builder's middlewares (route.ts, request-telemetry.ts) keep on the Lambda context. */
export interface RouteContext extends Context {
  /** When the request arrived, and its id: API Gateway's, as x-request-id and the log's correlation id. */
  requestTime: number;
  requestId: string;
  caller?: Caller;
  /** A request with an Idempotency-Key, once counted (use-cases/idempotency). */
  idempotent?: IdempotentRequest;
  rateLimitHeaders?: Record<string, string>;
  body?: unknown;
  /** The request body's length as sent (bodyGuard), before the parser replaces it. */
  bodyBytes?: number;
}

export type RouteRequest = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext>;
export type RouteMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext>;
