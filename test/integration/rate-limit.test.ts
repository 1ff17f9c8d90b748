import { ERRORS } from '#contract/errors';
import { KEY_ATTRIBUTES } from '#lambdas/definitions/tables';
import { RATE_LIMIT } from '#contract/limits';
import { api, createKey } from '../support/api';
import { storedKeyItem } from './support/store';

/** 100 requests per minute per key, sliding window, every authenticated request counted. */

const rateHeaders = (headers: Record<string, string>) => ({
  limit: Number(headers['x-ratelimit-limit']),
  remaining: Number(headers['x-ratelimit-remaining']),
  reset: Number(headers['x-ratelimit-reset']),
});

test('100 requests pass with counting-down headers; the 101st gets 429 with retry-after', async () => {
  const { key } = await createKey();
  const remaining: number[] = [];
  for (let i = 0; i < RATE_LIMIT.requests; i++) {
    // Failed requests count too: every fourth one asks for a secret that does not exist.
    const response = i % 4 === 3 ? await api('GET', '/secrets/AAAAAAAAAAAAAAAAAAAAAA', { key }) : await api('GET', '/keys', { key });
    expect(response.status).toBe(i % 4 === 3 ? 404 : 200);
    const headers = rateHeaders(response.headers);
    expect(headers.limit).toBe(100);
    const now = Date.now();
    expect(headers.reset).toBeGreaterThan(now - 1000);
    expect(headers.reset).toBeLessThanOrEqual(now + 60_000);
    remaining.push(headers.remaining);
  }
  expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));

  const before = Date.now();
  const limited = await api('GET', '/keys', { key });
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({ error: ERRORS.rateLimited });
  const headers = rateHeaders(limited.headers);
  expect(headers.limit).toBe(100);
  expect(headers.remaining).toBe(0);
  expect(headers.reset).toBeGreaterThan(before);
  expect(headers.reset).toBeLessThanOrEqual(Date.now() + 60_000);
  const retryAfter = Number(limited.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  // A request counts for up to 65 s (whole 5 s slots): retry-after may pass the 60 s reset cap.
  expect(retryAfter).toBeLessThanOrEqual((RATE_LIMIT.windowMs + RATE_LIMIT.slotMs) / 1000);

  // Limited on every route, and only this key is.
  expect((await api('POST', '/secrets', { key, json: { data: 'aGk=' } })).status).toBe(429);
  const other = await createKey();
  expect((await api('GET', '/keys', { key: other.key })).status).toBe(200);
});

test('parallel requests are counted exactly: of 110 at once, 100 pass, fewer only by what was counted twice', async () => {
  const { key } = await createKey();
  const responses = await Promise.all(Array.from({ length: 110 }, () => api('GET', '/keys', { key })));
  const passed = responses.filter((r) => r.status === 200).length;
  const limited = responses.filter((r) => r.status === 429).length;
  // Both sends of a count may end without an answer: 503 (store unavailable), counted or not.
  const unavailable = responses.filter((r) => r.status === 503).length;
  expect(passed + limited + unavailable).toBe(110);
  // Every request is counted. A count whose answer was lost (on a loaded machine, the SDK's 2 s
  // request timeout) and whose repeat found another request's token in the item is counted
  // twice: the count errs high, never letting through a request the limit should stop
  // (docs/retried-writes.md). On a quiet machine nothing is counted twice: exactly 100 pass.
  const item = await storedKeyItem(key);
  const counted = Object.values((item?.[KEY_ATTRIBUTES.rateLimitSlots] ?? {}) as Record<string, number>).reduce((sum, count) => sum + count, 0);
  expect(counted).toBeGreaterThanOrEqual(110);
  expect(passed).toBeLessThanOrEqual(RATE_LIMIT.requests);
  expect(passed).toBeGreaterThanOrEqual(RATE_LIMIT.requests - (counted - 110) - unavailable);
});
