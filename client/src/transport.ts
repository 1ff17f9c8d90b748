import type { ZodMiniType } from 'zod/mini';
import { ERRORS } from '../../contract/errors';
import { GATE, IDEMPOTENCY } from '../../contract/limits';
import { ROUTES, type RouteName } from '../../contract/routes';
import { errorResponse } from '../../contract/schemas';
import { NetworkError, PassphraseError, PayloadTooLargeError, RateLimitedError, SecretGoneError, ServiceError } from './errors';
import { IDEMPOTENT_RETRY_WINDOW_MS, MAX_ATTEMPTS, backoffMs, newIdempotencyKey, repeatableAfterUnknownOutcome, retryAfterMs, sleep } from './retry';

/** The service's routes over fetch: retries (retry.ts), status codes to typed errors, bodies checked by the service's schemas. */

export interface TransportOptions {
  /** `{base_url}`, ending in /api/v1. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Per attempt, the whole exchange: 60 s by default. */
  timeoutMs?: number;
  /** A 429 asking to wait longer than this (POST /keys's per-address limit: up to an hour) is reported, not waited for. 60 s by default. */
  maxRateLimitWaitMs?: number;
}

export interface Call<T> {
  route: RouteName;
  /** Fills `{id}` in the route's path. */
  id?: string;
  apiKey?: string;
  body?: unknown;
  /** Request headers of the route itself (the passphrase proof). */
  headers?: Record<string, string>;
  schema: ZodMiniType<T>;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 60_000;

function routeOf(name: RouteName) {
  const route = ROUTES.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route named ${name}`);
  return route;
}

/** What went wrong in words that name the service's origin only: paths carry secret ids. */
function networkFailure(error: unknown, origin: string, timeoutMs: number): NetworkError {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return new NetworkError(`no answer from ${origin} within ${timeoutMs / 1000} s`);
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : cause?.message;
  return new NetworkError(`cannot reach ${origin}${code ? ` (${code})` : ''}`);
}

/** The service's `{error}`, or the status when the body is not that (a proxy's page, say). */
function errorMessage(status: number, text: string): string {
  const parsed = errorResponse.safeParse(parseJson(text));
  return parsed.success ? parsed.data.error : `HTTP ${status} from the service`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export class Transport {
  private readonly baseUrl: string;
  private readonly origin: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxRateLimitWaitMs: number;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    // Bound, so that a plain fetch is not called with the Transport as `this`.
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
  }

  async call<T>(call: Call<T>): Promise<T> {
    const route = routeOf(call.route);
    const url = this.baseUrl + route.path.replace('{id}', encodeURIComponent(call.id ?? ''));
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const idempotent = route.idempotent === true;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(call.apiKey === undefined ? {} : { authorization: `Bearer ${call.apiKey}` }),
      ...call.headers,
      // One key for all tries of this call: the service answers each repeat as the first try.
      ...(idempotent ? { [IDEMPOTENCY.header]: newIdempotencyKey() } : {}),
    };
    const repeatable = idempotent || repeatableAfterUnknownOutcome(call.route);
    const startedAt = Date.now();
    // An idempotent call's tries all begin within IDEMPOTENT_RETRY_WINDOW_MS of its first.
    const mayWait = (waitMs: number): boolean => !idempotent || Date.now() + waitMs - startedAt <= IDEMPOTENT_RETRY_WINDOW_MS;

    for (let attempt = 1; ; attempt++) {
      const lastAttempt = attempt >= MAX_ATTEMPTS;
      let answer: Answer;
      try {
        // The body is read inside the timeout too: a stalled download is a network failure.
        const response = await this.fetch(url, {
          method: route.method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        answer = { status: response.status, headers: response.headers, text: await response.text() };
      } catch (error) {
        if (repeatable && !lastAttempt && mayWait(backoffMs(attempt))) {
          await sleep(backoffMs(attempt));
          continue;
        }
        throw networkFailure(error, this.origin, this.timeoutMs);
      }

      if (answer.status === 429) {
        const waitMs = retryAfterMs(answer.headers.get('retry-after'), Date.now());
        if (!lastAttempt && waitMs <= this.maxRateLimitWaitMs && mayWait(waitMs)) {
          await sleep(waitMs);
          continue;
        }
        throw new RateLimitedError(errorMessage(answer.status, answer.text), waitMs, Date.now() + waitMs);
      }
      if (answer.status >= 500 && repeatable && !lastAttempt && mayWait(backoffMs(attempt))) {
        await sleep(backoffMs(attempt));
        continue;
      }
      // 409: an earlier try is still at work; ask again shortly (a request's 409 is an answer).
      if (answer.status === 409 && idempotent && !lastAttempt && errorMessage(answer.status, answer.text) === ERRORS.idempotencyInFlight) {
        const waitMs = retryAfterMs(answer.headers.get('retry-after'), Date.now());
        if (mayWait(waitMs)) {
          await sleep(waitMs);
          continue;
        }
      }
      return decode(answer, call);
    }
  }
}

function decode<T>(answer: Answer, call: Call<T>): T {
  const requestId = answer.headers.get('x-request-id') ?? undefined;
  if (answer.status >= 200 && answer.status < 300) {
    const result = call.schema.safeParse(parseJson(answer.text));
    if (!result.success) throw new ServiceError('unexpected answer from the service', answer.status, requestId);
    return result.data;
  }
  // Only the secret routes take an id; a 404 elsewhere is a wrong base URL, a service error.
  if (answer.status === 404 && call.id !== undefined) throw new SecretGoneError();
  const message = errorMessage(answer.status, answer.text);
  const passphraseError = passphraseErrorOf(answer, message);
  if (passphraseError) throw passphraseError;
  if (answer.status === 413) throw new PayloadTooLargeError(message);
  throw new ServiceError(message, answer.status, requestId);
}

/** A gated secret's 403 (it carries the attempts left); 0 left: the wrong passphrase burned the secret. */
function passphraseErrorOf(answer: Answer, message: string): PassphraseError | SecretGoneError | undefined {
  const attemptsLeft = answer.headers.get(GATE.attemptsLeftHeader);
  if (answer.status !== 403 || attemptsLeft === null || !/^\d+$/.test(attemptsLeft)) return undefined;
  const left = Number(attemptsLeft);
  if (message === ERRORS.passphraseRequired) return new PassphraseError('required', left);
  return left === 0 ? SecretGoneError.burned() : new PassphraseError('wrong', left);
}
