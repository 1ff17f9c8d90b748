import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { ZodMiniType } from 'zod/mini';
import { ERRORS } from '#contract/errors';
import { API_STORE_BUDGET_MS, IDEMPOTENCY, MAX_BODY_BYTES, STORE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '#contract/limits';
import { routeOfRequest } from '../definitions/routes';
import { bearerKeyFrom } from '../rules/api-keys';
import { isWellFormedIdempotencyKey } from '../rules/idempotency';
import { authenticateRequest, type Caller } from '../use-cases/authentication';
import { keyBytesWindow, type StoredBytesQuota } from '../use-cases/stored-bytes';
import { idempotentRequestOf, isRepeat, releaseIdempotentRequest, type IdempotencyInput, type IdempotentRequest } from '../use-cases/idempotency';
import { StoreUnavailable, isStoreFault } from '../store/settled-write';
import { withinTimeBudget } from '../store/time-budget';
import type { RouteContext, RouteMiddleware, RouteRequest } from './route-context';
import { STANDARD_HEADERS, header } from './headers';
import { HttpError } from './http-error';
import { describeIssue } from '#contract/describe-issue';
import { requestTelemetry } from './request-telemetry';
import { telemetryMiddlewares } from '../telemetry/middleware';

export interface JsonResponse {
  statusCode: number;
  /** Serialized with JSON.stringify, unless it is JsonText already. */
  body: unknown;
  headers?: Record<string, string>;
}

export class JsonText {
  constructor(readonly text: string) {}
}

export interface RouteInput<TBody> {
  event: APIGatewayProxyEvent;
  now: number;
  body: TBody;
  /** The body's length as sent, before parsing. */
  bodyBytes: number;
}

const APPLICATION_JSON = /^application\/json\s*(;.*)?$/i;

function bodyByteLength(event: APIGatewayProxyEvent): number {
  if (event.body === null || event.body === undefined) return 0;
  return Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

/** Every response gets the standard headers and the request id; errors become JSON. Inside requestTelemetry, which logs the result. */
function envelope(): RouteMiddleware {
  const decorate = (request: RouteRequest): void => {
    const response = request.response;
    if (!response) return;
    response.headers = {
      ...response.headers,
      ...STANDARD_HEADERS,
      ...request.context.rateLimitHeaders,
      'x-request-id': request.context.requestId,
    };
  };
  return {
    after: decorate,
    onError: (request) => {
      const error = request.error;
      if (error instanceof HttpError) {
        request.response = {
          statusCode: error.statusCode,
          headers: error.headers,
          body: JSON.stringify({ error: error.message }),
        };
      } else if (isStoreFault(error)) {
        // Not a bug: 503, so that clients and alarms can tell it from a 500.
        request.response = {
          statusCode: 503,
          headers: { 'retry-after': String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
          body: JSON.stringify({ error: ERRORS.storeUnavailable }),
        };
      } else {
        request.response = { statusCode: 500, body: JSON.stringify({ error: ERRORS.internal }) };
      }
      decorate(request);
    },
  };
}

/** Every route, whether or not it reads a body: at most 5 MiB, and JSON when there is one. */
function bodyGuard(): RouteMiddleware {
  return {
    before: (request) => {
      const length = bodyByteLength(request.event);
      request.context.bodyBytes = length;
      if (length > MAX_BODY_BYTES) throw new HttpError(413, ERRORS.payloadTooLarge);
      if (length > 0 && !APPLICATION_JSON.test(header(request.event, 'content-type') ?? '')) {
        throw new HttpError(400, ERRORS.contentType);
      }
    },
  };
}

/** The Idempotency-Key of a request to a route that takes one (routes.ts `idempotent`), checked. */
function idempotencyInputOf(event: APIGatewayProxyEvent): IdempotencyInput | undefined {
  const route = routeOfRequest(event.httpMethod, event.resource);
  const key = header(event, IDEMPOTENCY.header);
  if (!route?.idempotent || key === undefined) return undefined;
  if (!isWellFormedIdempotencyKey(key)) throw new HttpError(400, ERRORS.idempotencyKey);
  return { route: `${route.method} ${route.path}`, id: event.pathParameters?.id ?? '', key, ...(event.body ? { body: event.body } : {}) };
}

/** An answer that did no work (a 5xx, a 429) is not replayed, unless the store failed after it may have written. */
const didNoWork = (error: unknown): boolean =>
  error instanceof StoreUnavailable ? !error.mayHaveWritten : !(error instanceof HttpError) || error.statusCode >= 500 || error.statusCode === 429;

/** Best effort: a record left behind only makes a repeat wait out IDEMPOTENCY.inFlightMs. */
const releaseQuietly = (idempotent: IdempotentRequest): Promise<void> => releaseIdempotentRequest(idempotent).catch(() => undefined);

/** One conditional UpdateItem authenticates and counts the request; then an idempotent request records itself. */
function authentication(options: Pick<RouteOptions<unknown>, 'fullKeyOnly' | 'storedBytes'>): RouteMiddleware {
  const { fullKeyOnly, storedBytes } = options;
  return {
    before: async (request) => {
      const authorization = header(request.event, 'authorization');
      if (authorization === undefined) throw new HttpError(401, ERRORS.missingCredentials);
      const key = bearerKeyFrom(authorization);
      if (key === undefined) throw new HttpError(401, ERRORS.invalidApiKey);
      const idempotency = idempotencyInputOf(request.event);

      const now = request.context.requestTime;
      // A body over the limit is refused (413) without being counted.
      const length = bodyByteLength(request.event);
      const bytes = storedBytes && length <= MAX_BODY_BYTES ? length : 0;
      const result = await authenticateRequest(key, now, bytes);
      if (result.outcome === 'unknown') throw new HttpError(401, ERRORS.invalidApiKey);
      if (result.outcome === 'expired') throw new HttpError(401, ERRORS.expiredApiKey);

      const { window } = result;
      request.context.rateLimitHeaders = {
        'x-ratelimit-limit': String(window.limit),
        'x-ratelimit-remaining': String(window.remaining),
        'x-ratelimit-reset': String(window.resetAt),
      };
      if (result.outcome === 'limited') throw new HttpError(429, ERRORS.rateLimited, { 'retry-after': retryAfterSeconds(window.retryAt, now) });
      if (fullKeyOnly && result.caller.stored.revealOnly) throw new HttpError(403, ERRORS.revealOnlyKey);
      const { caller } = result;
      request.context.caller = caller;
      const idempotent = idempotency && (await idempotentRequestOf(key, caller.keyHash, idempotency, now));
      if (idempotent?.standing.kind === 'reused') throw new HttpError(422, ERRORS.idempotencyKeyReused);
      if (idempotent) request.context.idempotent = idempotent;
      if (storedBytes && bytes > 0) {
        // A repeat's bytes go back unchecked; a 429 here releases the idempotency record (onError).
        const day = await keyBytesWindow(caller.keyHash, caller.byteSlots, now, bytes, storedBytes, isRepeat(idempotent));
        if (day.limited) throw new HttpError(429, ERRORS.storedBytesPerKeyLimited, { 'retry-after': retryAfterSeconds(day.retryAt, now) });
      }
    },
    onError: async (request) => {
      const { idempotent } = request.context;
      if (idempotent && didNoWork(request.error)) await releaseQuietly(idempotent);
    },
  };
}

/** The answer to a repeat whose first request may still be at work (use-cases/secrets STILL_IN_FLIGHT). */
export const stillInFlight = (): HttpError =>
  new HttpError(409, ERRORS.idempotencyInFlight, { 'retry-after': String(IDEMPOTENCY.inFlightRetryAfterSeconds) });

export const retryAfterSeconds = (at: number, now: number): string => String(Math.max(1, Math.ceil((at - now) / 1000)));

const JSON_BODY_PARSER = '@middy/http-json-body-parser';

/** Middy's parser names itself as the cause of what it throws (no JSON, or a `__proto__` key). */
const isJsonBodyParserError = (error: unknown): boolean =>
  error instanceof Error && (error.cause as { package?: unknown } | undefined)?.package === JSON_BODY_PARSER;

/** Presence, JSON syntax, object shape, then the zod schema; every refusal is one of the contract's 400s. */
function jsonBody<TBody>(schema: ZodMiniType<TBody>, required: boolean): RouteMiddleware[] {
  const presence: RouteMiddleware = {
    before: (request) => {
      if (request.event.body) return;
      if (required) throw new HttpError(400, ERRORS.bodyRequired);
      // An optional body left out (POST /keys without one) is an empty object.
      request.event.body = '{}';
    },
  };
  // bodyGuard has checked the content type, by the contract's stricter rule than the parser's.
  const parser: RouteMiddleware = httpJsonBodyParser<APIGatewayProxyEvent>({ disableContentTypeCheck: true });
  const validation: RouteMiddleware = {
    before: (request) => {
      const parsed: unknown = request.event.body;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new HttpError(400, ERRORS.notAnObject);
      }
      const result = schema.safeParse(parsed);
      if (!result.success) throw new HttpError(400, describeIssue(result.error));
      request.context.body = result.data;
    },
    // Runs before envelope's onError (middy calls them last used first), which answers the 400.
    onError: (request) => {
      if (isJsonBodyParserError(request.error)) request.error = new HttpError(400, ERRORS.invalidJson);
    },
  };
  return [presence, parser, validation];
}

interface RouteOptions<TBody> {
  body?: { schema: ZodMiniType<TBody>; required: boolean };
  /** Refused (403) to a reveal-only key: the route creates secrets or changes the key. */
  fullKeyOnly?: boolean;
  /** POST /secrets and POST /requests/{id}: the body's bytes count against the key's daily quota, in the authenticating write. */
  storedBytes?: StoredBytesQuota;
}

/** Builds a route's Lambda handler: authentication, body checks, then the route; every outcome leaves as JSON. */
function buildRoute<TBody>(
  authenticate: boolean,
  options: RouteOptions<TBody>,
  run: (input: RouteInput<TBody>, context: RouteContext) => Promise<JsonResponse>,
) {
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext>()
    .use(telemetryMiddlewares())
    .use(requestTelemetry())
    .use(envelope());
  if (authenticate) handler.use(authentication(options));
  handler.use(bodyGuard());
  if (options.body) handler.use(jsonBody(options.body.schema, options.body.required));
  const routeHandler = handler.handler(async (event, context) => {
    const response = await run({ event, now: context.requestTime, body: context.body as TBody, bodyBytes: context.bodyBytes ?? 0 }, context);
    return {
      statusCode: response.statusCode,
      headers: response.headers ?? {},
      body: response.body instanceof JsonText ? response.body.text : JSON.stringify(response.body),
    };
  });
  // The budget starts with the function: every DynamoDB call draws on what is left (store/time-budget.ts).
  return (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> =>
    withinTimeBudget(API_STORE_BUDGET_MS, () => routeHandler(event, context as RouteContext));
}

export function publicRoute<TBody = undefined>(options: RouteOptions<TBody>, run: (input: RouteInput<TBody>) => Promise<JsonResponse>) {
  return buildRoute(false, options, run);
}

export function authenticatedRoute<TBody = undefined>(
  options: RouteOptions<TBody>,
  run: (input: RouteInput<TBody> & { caller: Caller; idempotent?: IdempotentRequest }) => Promise<JsonResponse>,
) {
  return buildRoute(true, options, (input, context) => {
    if (!context.caller) throw new Error('authentication middleware did not run');
    return run({ ...input, caller: context.caller, ...(context.idempotent ? { idempotent: context.idempotent } : {}) });
  });
}
