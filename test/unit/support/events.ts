import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { lambdaContext } from '#local/lambda-context';
import { proxyEvent } from '#local/proxy-event';

export interface EventOptions {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | null;
  pathParameters?: Record<string, string> | null;
  requestId?: string;
  sourceIp?: string;
  isBase64Encoded?: boolean;
}

let counter = 0;

/** API Gateway's `resource`: the route template, each path parameter's value put back as `{name}`. */
const resourceOf = (path: string, pathParameters: Record<string, string> | null | undefined): string =>
  Object.entries(pathParameters ?? {}).reduce(
    (resource, [name, value]) => (value === '' ? resource : resource.replace(`/${value}`, `/{${name}}`)),
    path,
  );

/** An API Gateway REST (v1) proxy event as the gateway hands it to the function. */
export function apiEvent(options: EventOptions): APIGatewayProxyEvent {
  counter += 1;
  return proxyEvent({
    method: options.method,
    resource: `/api/v1${resourceOf(options.path, options.pathParameters)}`,
    path: `/api/v1${options.path}`,
    headers: Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name, [value]])),
    pathParameters: options.pathParameters ?? null,
    body: options.body ?? null,
    isBase64Encoded: options.isBase64Encoded ?? false,
    sourceIp: options.sourceIp ?? '203.0.113.7',
    requestId: options.requestId ?? `req-${counter}-${Math.random().toString(36).slice(2)}`,
    stage: 'prod',
  });
}

export const jsonHeaders = (extra: Record<string, string> = {}): Record<string, string> => ({
  'Content-Type': 'application/json',
  ...extra,
});

export const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });

export interface InvokeResult {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
  rawBody: string;
}

type RouteHandler<C> = (event: APIGatewayProxyEvent, context: C) => Promise<APIGatewayProxyResult>;

/** Invokes a route handler as Lambda would and parses its JSON body. */
export async function invoke<C>(handler: RouteHandler<C>, event: APIGatewayProxyEvent): Promise<InvokeResult> {
  const result = await handler(event, lambdaContext('unit', 'lambda-request', 10_000) as C);
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));
  return { statusCode: result.statusCode, headers, body: JSON.parse(result.body) as unknown, rawBody: result.body };
}
