import { ERRORS } from '#contract/errors';
import { MAX_BODY_BYTES } from '#contract/limits';
import { api, createKey } from '../support/api';

/** Contract, "HTTP behaviour": what every response carries, and what the gateway answers itself. */

const expectContractHeaders = (headers: Record<string, string>): void => {
  expect(headers['content-type']).toMatch(/^application\/json/);
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-request-id']).toMatch(/\S{8,}/);
};

describe('every response', () => {
  test('carries JSON content type, no-store, nosniff and a unique x-request-id, errors included', async () => {
    const { key } = await createKey();
    const responses = await Promise.all([
      api('GET', '/health'),
      api('GET', '/keys', { key }),
      api('GET', '/keys'),
      api('GET', '/secrets/unknownunknownunknown0', { key }),
      api('POST', '/secrets', { key, json: { data: '***' } }),
      api('GET', '/no-such-route'),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 401, 404, 400, 404]);
    for (const response of responses) expectContractHeaders(response.headers);
    const ids = new Set(responses.map((r) => r.headers['x-request-id']));
    expect(ids.size).toBe(responses.length);
  });
});

describe('unknown routes', () => {
  test.each([
    ['GET', '/no-such-route'],
    ['GET', '/'],
    ['GET', '/api/v2/health'],
    ['POST', '/health'],
    ['PUT', '/keys'],
    ['GET', '/secrets'],
  ])('%s %s answers 404 with the JSON error body, with or without credentials', async (method, path) => {
    const { key } = await createKey();
    for (const options of [{}, { key }]) {
      const response = await api(method, path, options);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: ERRORS.routeNotFound });
      expectContractHeaders(response.headers);
    }
  });
});

describe('request bodies', () => {
  test('a body over the gateway quota (10 MiB) gets 413 with the JSON error body', async () => {
    const response = await api('POST', '/keys', {
      rawBody: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: ERRORS.payloadTooLarge });
  });

  test('any route refuses a body over 5 MiB with 413', async () => {
    const { key } = await createKey();
    const response = await api('PATCH', '/keys', {
      key,
      rawBody: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: ERRORS.payloadTooLarge });
  });

  test.each([
    ['text/plain', '{"webhook":""}'],
    ['application/x-www-form-urlencoded', 'webhook='],
    ['application/vnd.api+json', '{"webhook":""}'],
  ])('Content-Type %s is refused with 400', async (contentType, body) => {
    const { key } = await createKey();
    const response = await api('PATCH', '/keys', { key, rawBody: body, headers: { 'content-type': contentType } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: ERRORS.contentType });
  });

  test('Content-Type application/json with a charset parameter is accepted', async () => {
    const { key } = await createKey();
    const response = await api('PATCH', '/keys', {
      key,
      rawBody: '{"webhook":""}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(200);
  });

  test.each([
    ['{"webhook":', ERRORS.invalidJson],
    ['not json', ERRORS.invalidJson],
    ['[]', ERRORS.notAnObject],
    ['null', ERRORS.notAnObject],
    ['"text"', ERRORS.notAnObject],
    ['42', ERRORS.notAnObject],
  ])('body %s gets 400 (%s)', async (body, message) => {
    const { key } = await createKey();
    const response = await api('PATCH', '/keys', { key, rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
  });
});

describe('GET /health', () => {
  test('needs no credentials and reports the data store', async () => {
    const before = Date.now();
    const response = await api('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'healthy',
      redis: 'connected',
      latency: expect.any(Number),
      timestamp: expect.any(Number),
    });
    expect(Number.isInteger(response.body.latency)).toBe(true);
    expect(response.body.timestamp).toBeGreaterThanOrEqual(before);
    expect(response.body.timestamp).toBeLessThanOrEqual(Date.now());
  });
});

describe('routes that read no body', () => {
  test('still refuse a non-empty body that is not JSON, and ignore a JSON one', async () => {
    const { key } = await createKey();
    const refused = await api('GET', '/keys', { key, rawBody: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: ERRORS.contentType });
    expect((await api('GET', '/keys', { key, json: { anything: 1 } })).status).toBe(200);
  });
});
