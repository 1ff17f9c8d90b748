import { ADDRESS_NOT_ALLOWED, AddressNotAllowedError } from './address-guard';

/**
 * What one delivery attempt came to. Reasons are short and fixed in form: they are logged and
 * may be shown to the key's owner, so they never carry the URL (it may hold a token), the body
 * or the headers, nor an error message, which can name the host.
 */
export type DeliveryOutcome = { ok: true; status: number } | { ok: false; reason: string; status?: number; retryAfterMs?: number };

/** Statuses whose Retry-After the retry schedule honours (rules/retry-schedule.ts). */
const ASKS_TO_WAIT = new Set([429, 503]);

export function outcomeOfStatus(status: number, retryAfter?: string, now = Date.now()): DeliveryOutcome {
  if (status >= 200 && status < 300) return { ok: true, status };
  // Redirects are not followed: the target of a Location header was never checked.
  if (status >= 300 && status < 400) return { ok: false, reason: `redirect ${status} not followed`, status };
  const retryAfterMs = ASKS_TO_WAIT.has(status) ? retryAfterMsOf(retryAfter, now) : undefined;
  return { ok: false, reason: `status ${status}`, status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

/** Retry-After as RFC 9110 states it: whole seconds, or an HTTP date; anything else is ignored. */
function retryAfterMsOf(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export const timedOut = (timeoutMs: number): DeliveryOutcome => ({
  ok: false,
  reason: `timed out after ${timeoutMs} ms`,
});

const DESCRIBED_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
};

/** Error codes are constants such as ECONNREFUSED or CERT_HAS_EXPIRED; anything else is not echoed. */
const SAFE_CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

export function outcomeOfError(error: Error): DeliveryOutcome {
  if (error instanceof AddressNotAllowedError) return { ok: false, reason: ADDRESS_NOT_ALLOWED };
  const code = 'code' in error && typeof error.code === 'string' && SAFE_CODE.test(error.code) ? error.code : undefined;
  if (code === undefined) return { ok: false, reason: 'request failed' };
  return { ok: false, reason: `${DESCRIBED_CODES[code] ?? 'request failed'} (${code})` };
}
