import '../support/env';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as health } from '#lambdas/routes/health';
import { expectNoRateLimitHeaders, expectStandardHeaders } from '../support/assertions';
import { mockDocumentClient, sentCommands, throttled } from '../support/dynamo';
import { TEST_ENV } from '../support/env';
import { apiEvent, invoke } from '../support/events';

const ddb = mockDocumentClient();

beforeEach(() => ddb.reset());
afterEach(() => jest.restoreAllMocks());

const check = () => invoke(health, apiEvent({ method: 'GET', path: '/health', requestId: 'rid-h' }));

test('200 healthy/connected with integer latency and a ms timestamp, without credentials', async () => {
  ddb.on(GetCommand).resolves({});
  const before = Date.now();
  const response = await check();
  expect(response.statusCode).toBe(200);
  expectStandardHeaders(response, 'rid-h');
  expectNoRateLimitHeaders(response);
  const body = response.body as Record<string, unknown>;
  expect(body).toMatchObject({ status: 'healthy', redis: 'connected' });
  expect(Number.isInteger(body.latency)).toBe(true);
  expect(body.timestamp).toBeGreaterThanOrEqual(before);
  expect(body.timestamp).toBeLessThanOrEqual(Date.now());
  expect(sentCommands(ddb)).toEqual([{ name: 'GetCommand', input: expect.objectContaining({ TableName: TEST_ENV.keysTable }) }]);
});

test('503 unhealthy/disconnected when the store does not answer', async () => {
  ddb.on(GetCommand).rejects(throttled());
  const response = await check();
  expect(response.statusCode).toBe(503);
  expectStandardHeaders(response, 'rid-h');
  expect(response.body).toMatchObject({ status: 'unhealthy', redis: 'disconnected' });
});
