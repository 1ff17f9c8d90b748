import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { API_BASE_PATH } from '#contract/limits';
import type { RouteDefinition } from '#lambdas/definitions/routes';
import { proxyEvent } from '#local/proxy-event';

/** The event API Gateway hands a route's function, as local mode builds it. */

export interface RouteRequest {
  headers?: Record<string, string>;
  body?: string;
  pathParameters?: Record<string, string>;
  sourceIp?: string;
}

const DEFAULT_SOURCE_IP = '198.18.0.1';

/** An API Gateway proxy event for `route`, with its {param} placeholders filled from pathParameters. */
export function routeEvent(route: RouteDefinition, request: RouteRequest): APIGatewayProxyEvent {
  const resource = `${API_BASE_PATH}${route.path}`;
  const path = resource.replace(/\{(\w+)\}/g, (_, name: string) => request.pathParameters?.[name] ?? '');
  return proxyEvent({
    method: route.method,
    resource,
    path,
    headers: Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, [value]])),
    pathParameters: request.pathParameters ?? null,
    body: request.body ?? null,
    sourceIp: request.sourceIp ?? DEFAULT_SOURCE_IP,
    requestId: randomUUID(),
    stage: 'prod',
  });
}
