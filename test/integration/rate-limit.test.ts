import { ERRORS } from '../../lambdas/definitions/errors';
import { RATE_LIMIT } from '../../lambdas/definitions/limits';
import { api, createKey } from '../support/api';

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

test('parallel requests are counted exactly: of 110 at once, 100 pass', async () => {
  const { key } = await createKey();
  const responses = await Promise.all(Array.from({ length: 110 }, () => api('GET', '/keys', { key })));
  expect(responses.filter((r) => r.status === 200)).toHaveLength(100);
  expect(responses.filter((r) => r.status === 429)).toHaveLength(10);
});
