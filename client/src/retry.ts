import type { RouteName } from '../../contract/routes';
import { toBase64Url } from './base64';

/**
 * When a request is tried again. A 429 was not acted on, so any request may be repeated after its
 * `retry-after`. After a network failure or a 5xx the outcome is unknown: only requests whose
 * repetition cannot consume a view, nor create a second secret or key, are repeated. A route not
 * listed here (a new one too) is not repeated.
 *
 * Hand-written rather than a retry library's: the decision hangs on the route and on the
 * service's retry-after, which generic wrappers would need all this code to be told anyway.
 */

const REPEATABLE_AFTER_UNKNOWN_OUTCOME: ReadonlySet<RouteName> = new Set<RouteName>([
  'health',
  'keys-get',
  'keys-update',
  // A repeated revocation finds nothing left to revoke (401 or 404): no harm done.
  'keys-delete',
  'secrets-revoke',
  // Reads a receipt, using no view.
  'secrets-status',
  // Reads of a request: nothing to repeat but the read.
  'requests-get',
  'requests-status',
]);

export const MAX_ATTEMPTS = 3;

/**
 * The routes that take an Idempotency-Key (routes.ts `idempotent`: a secret's create, claim and
 * revoke, a request's create and fulfilment) are repeated with the key of their first try: the
 * service answers a repeat as it answered the first, so a claim whose answer was lost gets its
 * data without a second view. At most MAX_ATTEMPTS tries, each begun within
 * this long of the first.
 */
export const IDEMPOTENT_RETRY_WINDOW_MS = 30_000;

/** 16 random bytes as 22 base64url characters, fresh for every call of a route that takes one. */
export const newIdempotencyKey = (): string => toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
const FIRST_BACKOFF_MS = 500;

export const repeatableAfterUnknownOutcome = (route: RouteName): boolean => REPEATABLE_AFTER_UNKNOWN_OUTCOME.has(route);

/** Wait before attempt `attempt + 1` after a network failure or a 5xx: 0.5 s, then 1 s. */
export const backoffMs = (attempt: number): number => FIRST_BACKOFF_MS * 2 ** (attempt - 1);

/** `retry-after` in seconds (what the service sends) or as an HTTP date; 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number {
  if (header !== null && /^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = header === null ? NaN : Date.parse(header);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
