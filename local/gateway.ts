import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ERRORS } from '#contract/errors';
import { API_BASE_PATH, API_FUNCTION_TIMEOUT_MS } from '#contract/limits';
import { ROUTES, type RouteDefinition } from '#lambdas/definitions/routes';
import { API_PATH_PREFIX } from '#contract/site';
import { STANDARD_HEADERS } from '#lambdas/http/headers';
import { USAGE_HEADERS, noDynamoDbUsage, withDynamoDbUsage } from './dynamodb-usage';
import { invocationScopes } from './invocation-scope';
import { lambdaContext } from './lambda-context';
import { servePage, type Pages } from './pages';
import { proxyEvent } from './proxy-event';
import { asFunction } from './sdk-calls';
import { answerUnparsableRequests } from './unparsable-requests';

/** API Gateway (REST, Lambda proxy) for the route handlers, with the stack's JSON gateway responses; other paths are the pages. */

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface ServedRoute {
  definition: RouteDefinition;
  resource: string;
  pattern: RegExp;
  parameterNames: string[];
  handler: ProxyHandler;
}

/** API Gateway's own hard limit on request bodies; the API's 5 MiB limit is the handlers' job. */
const GATEWAY_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

function compile(definition: RouteDefinition, handler: ProxyHandler): ServedRoute {
  const resource = API_BASE_PATH + definition.path;
  const parameterNames: string[] = [];
  const source = resource.replace(/\{(\w+)\}/g, (_, name: string) => {
    parameterNames.push(name);
    return '([^/]+)';
  });
  return { definition, resource, pattern: new RegExp(`^${source}$`), parameterNames, handler };
}

/** Imports every route's handler module, as each Lambda would on its cold start. */
export async function loadRoutes(): Promise<ServedRoute[]> {
  const loaded = await Promise.all(
    ROUTES.map(async (definition) => ({
      definition,
      module: (await import(`../lambdas/routes/${definition.name}`)) as { handler: ProxyHandler },
    })),
  );
  const inScope = await invocationScopes();
  return loaded.map(({ definition, module }) => compile(definition, inScope(asFunction(definition.name, module.handler))));
}

async function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= GATEWAY_BODY_LIMIT_BYTES) chunks.push(chunk);
  }
  return size > GATEWAY_BODY_LIMIT_BYTES ? 'too-large' : Buffer.concat(chunks);
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The path as the client sent it, as API Gateway matches it: WHATWG URL parsing would resolve
 * `/api/v1/../../etc/passwd` to `/etc/passwd`, a page path, and read `//x/...` as a host.
 */
function rawPathOf(target: string): string {
  if (!target.startsWith('/')) return new URL(target, 'http://localhost').pathname; // absolute-form
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/** Under the API's prefix as sent or once normalized: either way the answer is the API's JSON. */
const isApiPath = (rawPath: string, normalizedPath: string): boolean =>
  rawPath.startsWith(API_PATH_PREFIX) || normalizedPath.startsWith(API_PATH_PREFIX);

const clientAddress = (request: IncomingMessage): string => (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '');

function send(response: ServerResponse, statusCode: number, headers: Record<string, string>, body: string): void {
  // Encoded once: measuring the string first would scan up to 5 MiB twice.
  const payload = Buffer.from(body);
  response.writeHead(statusCode, { ...headers, 'content-length': payload.length });
  response.end(payload);
}

/** What the stack's gateway responses answer when the request never reaches a function. */
function sendGatewayError(response: ServerResponse, statusCode: number, message: string, requestId: string): void {
  send(response, statusCode, { ...STANDARD_HEADERS, 'x-request-id': requestId }, JSON.stringify({ error: message }));
}

export interface GatewayOptions {
  /** Gateway errors, and with `requestLog` a line per request. */
  log: (line: string) => void;
  /** Measures each request's DynamoDB usage, for the log and the `x-local-*` response headers. */
  requestLog: boolean;
  pages: Pages;
}

/** The handler's result; when measured, also its DynamoDB usage and the headers that report it. */
async function invoke(handler: ProxyHandler, event: APIGatewayProxyEvent, context: Context, measure: boolean) {
  if (!measure) return { result: await handler(event, context), usageHeaders: {}, usage: noDynamoDbUsage() };
  const invoked = performance.now();
  const { result, usage } = await withDynamoDbUsage(() => handler(event, context));
  const reported = { ...usage, handlerMs: (performance.now() - invoked).toFixed(2) };
  const usageHeaders = Object.fromEntries(
    Object.entries(USAGE_HEADERS).map(([key, header]) => [header, String(reported[key as keyof typeof reported])]),
  );
  return { result, usage, usageHeaders };
}

export function createGateway(routes: readonly ServedRoute[], { log, requestLog, pages }: GatewayOptions): Server {
  const server = createServer((request, response) => {
    void (async () => {
      const started = Date.now();
      const requestId = randomUUID();
      const url = new URL(request.url ?? '/', 'http://localhost');
      const path = rawPathOf(request.url ?? '/');
      if (!isApiPath(path, url.pathname)) {
        servePage(pages, request, response, url.pathname);
        // Not the path: a reveal page's path is a secret's id.
        if (requestLog) log(`${request.method} (page) ${response.statusCode} ${Date.now() - started}ms`);
        return;
      }
      let match: { route: ServedRoute; parameters: Record<string, string> } | undefined;
      for (const route of routes) {
        const found = route.pattern.exec(path);
        if (!found || route.definition.method !== request.method) continue;
        const parameters = Object.fromEntries(route.parameterNames.map((name, index) => [name, decodePathSegment(found[index + 1] ?? '')]));
        match = { route, parameters };
        break;
      }
      const body = await readBody(request);
      let usage = noDynamoDbUsage();
      if (!match) {
        sendGatewayError(response, 404, ERRORS.routeNotFound, requestId);
      } else if (body === 'too-large') {
        sendGatewayError(response, 413, ERRORS.payloadTooLarge, requestId);
      } else {
        const { route, parameters } = match;
        const event = proxyEvent({
          method: route.definition.method,
          resource: route.resource,
          path,
          headers: Object.fromEntries(Object.entries(request.headersDistinct).flatMap(([name, values]) => (values ? [[name, values]] : []))),
          query: url.searchParams,
          pathParameters: route.parameterNames.length > 0 ? parameters : null,
          body: body.length > 0 ? body.toString('utf8') : null,
          sourceIp: clientAddress(request),
          requestId,
          stage: 'local',
        });
        const context = lambdaContext(`local-${route.definition.name}`, requestId, API_FUNCTION_TIMEOUT_MS);
        const invoked = await invoke(route.handler, event, context, requestLog);
        usage = invoked.usage;
        const headers = {
          ...Object.fromEntries(Object.entries(invoked.result.headers ?? {}).map(([name, value]) => [name, String(value)])),
          ...invoked.usageHeaders,
        };
        send(response, invoked.result.statusCode, headers, invoked.result.body);
      }
      if (!requestLog) return;
      // Logged by route template, never by raw path: a secret's id is the capability to read it.
      log(
        `gateway ${request.method} ${match?.route.resource ?? '(no route)'} ${response.statusCode} ` +
          `${Date.now() - started}ms ${usage.calls} DynamoDB calls (${usage.readUnits} RCU, ${usage.writeUnits} WCU)`,
      );
    })().catch((error: unknown) => {
      log(`gateway error: ${(error as Error).message}`);
      if (!response.headersSent) sendGatewayError(response, 502, ERRORS.internal, randomUUID());
      else response.destroy();
    });
  });
  answerUnparsableRequests(server);
  return server;
}
