import { RATE_LIMIT } from '#contract/limits';
import type { InvokeResult } from './events';

/** Contract: every response, errors included, carries these. */
export function expectStandardHeaders(response: InvokeResult, requestId: string): void {
  expect(response.headers).toMatchObject({
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-request-id': requestId,
  });
}

/** Contract: exactly {"error": "<message>"}. */
export function expectErrorBody(response: InvokeResult, message?: string): void {
  expect(response.body).toEqual({ error: message ?? expect.any(String) });
  expect((response.body as { error: string }).error.length).toBeGreaterThan(0);
}

/** Contract: limit 100, remaining, reset a ms timestamp in the future and at most 60 s ahead. */
export function expectRateLimitHeaders(response: InvokeResult, now: number, remaining?: number): void {
  const headers = response.headers;
  expect(headers['x-ratelimit-limit']).toBe(String(RATE_LIMIT.requests));
  expect(headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  if (remaining !== undefined) expect(headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  const reset = Number(headers['x-ratelimit-reset']);
  expect(reset).toBeGreaterThan(now);
  expect(reset).toBeLessThanOrEqual(now + RATE_LIMIT.windowMs);
}

export function expectNoRateLimitHeaders(response: InvokeResult): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
    expect(response.headers).not.toHaveProperty(name);
  }
}
