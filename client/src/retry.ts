import type { RouteName } from '../../contract/routes';
import { toBase64Url } from './base64';

/**
 * When a request is tried again: after a 429, any; after a network failure or a 5xx, only those whose repeat is harmless.
 * Hand-written: the decision hangs on the route and the service's retry-after, which a retry library would need told.
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

/** Routes taking an Idempotency-Key are repeated with their first try's key, each try begun within this long. */
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
