import { USAGE_HEADERS } from '#local/dynamodb-usage';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { eventually } from '../support/eventually';
import { api } from '../support/api';
import { startLocalServer } from '../support/local-server';

/**
 * How local mode serves, each on a server of its own: health when its DynamoDB Local stops, and
 * without the request log (kept apart from local-mode.test.ts so that Jest's workers run the two
 * side by side: each starts several servers).
 */

test('GET /health answers 503 unhealthy/disconnected when the data store stops answering', async () => {
  const dynamoDb = await startDynamoDbLocal('any', undefined);
  const server = await startLocalServer({ DYNAMODB_ENDPOINT: dynamoDb.endpoint });
  try {
    // A DynamoDB Local just started can take longer than SLOW_STORE_MS over its first reads on a
    // busy machine, and health rightly says 503 unhealthy/connected then: first wait until it is warm.
    await eventually(async () => expect((await api('GET', '/health', { baseUrl: server.baseUrl })).status).toBe(200), 30_000);
    await dynamoDb.stop();
    const response = await api('GET', '/health', { baseUrl: server.baseUrl });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ status: 'unhealthy', redis: 'disconnected' });
    expect(response.headers['content-type']).toBe('application/json');
  } finally {
    await server.stop();
    await dynamoDb.stop();
  }
});

test('LOCAL_REQUEST_LOG=off serves the same API without the gateway’s request line and the x-local usage headers', async () => {
  const dynamoDb = await startDynamoDbLocal('any', undefined);
  const servers = await Promise.all([
    startLocalServer({ DYNAMODB_ENDPOINT: dynamoDb.endpoint }),
    startLocalServer({ DYNAMODB_ENDPOINT: dynamoDb.endpoint, LOCAL_REQUEST_LOG: 'off' }),
  ]);
  const [logged, quiet] = servers;
  try {
    const fromLogged = await api('POST', '/keys', { baseUrl: logged.baseUrl });
    const fromQuiet = await api('POST', '/keys', { baseUrl: quiet.baseUrl });
    expect([fromLogged.status, fromQuiet.status]).toEqual([201, 201]);
    expect(fromLogged.headers[USAGE_HEADERS.calls]).toBe('2');
    expect(Object.keys(fromQuiet.headers).filter((name) => name.startsWith('x-local-'))).toEqual([]);
    // The line is written once the response has left; a quiet server would have written it by then too.
    await eventually(() => expect(logged.output()).toMatch(/gateway POST \/api\/v1\/keys 201 \d+ms 2 DynamoDB calls/));
    await api('GET', '/health', { baseUrl: quiet.baseUrl });
    // The function's own line stays, as on Lambda; the gateway adds none.
    await eventually(() => expect(quiet.output()).toContain('"route":"GET /api/v1/health"'));
    expect(quiet.output()).toContain('"route":"POST /api/v1/keys"');
    expect(quiet.output()).not.toContain('gateway POST');
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await dynamoDb.stop();
  }
});
