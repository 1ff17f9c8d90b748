import '../support/env';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LOG_MESSAGES, METRICS, METRIC_DIMENSIONS, METRICS_NAMESPACE, SERVICE_NAME } from '#lambdas/definitions/observability';
import { SECRET_HEAD_SK } from '#lambdas/definitions/tables';
import { handler as keysGet } from '#lambdas/routes/keys-get';
import { handler as secretsClaim } from '#lambdas/routes/secrets-claim';
import { handler as secretsCreate } from '#lambdas/routes/secrets-create';
import { handler as secretsRevoke } from '#lambdas/routes/secrets-revoke';
import { conditionFailed, mockDocumentClient } from '../support/dynamo';
import { TEST_ENV } from '../support/env';
import { apiEvent, bearer, invoke, jsonHeaders } from '../support/events';
import { apiKeyFixture, keyItem, serveKeyItem } from '../support/key-item';
import { printedLines, printedMetrics, printedText } from '../support/printed';

/** Every route's log line and metrics, as the route builder writes them for all routes. */

const ddb = mockDocumentClient();
const ID = 'AbCdEfGhIjKlMnOpQrSt_-';
const DATA = Buffer.from('the vault opens at dawn').toString('base64');
let caller: ReturnType<typeof apiKeyFixture>;

beforeEach(() => {
  ddb.reset();
  caller = apiKeyFixture();
  serveKeyItem(ddb, { item: keyItem(caller.pk) });
});

const claim = (requestId = 'rid-claim') =>
  invoke(secretsClaim, apiEvent({ method: 'GET', path: `/secrets/${ID}`, pathParameters: { id: ID }, headers: bearer(caller.key), requestId }));
const requestLines = () => printedLines().filter((line) => line.message === LOG_MESSAGES.request);
const secretHead = { pk: ID, sk: SECRET_HEAD_SK, owner: 'o', type: 'text', views: 2, remaining: 1, created: 1, expires: Date.now() + 60_000, ttl: 0 };

describe('the request line', () => {
  test('one per request: route template, status, duration, and the response’s request id as correlation id', async () => {
    const response = await invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', headers: bearer(caller.key), requestId: 'rid-keys' }));

    expect(response.statusCode).toBe(200);
    expect(requestLines()).toEqual([
      expect.objectContaining({
        level: 'INFO',
        service: SERVICE_NAME,
        correlation_id: 'rid-keys',
        route: 'GET /api/v1/keys',
        status: 200,
        durationMs: expect.any(Number),
      }),
    ]);
    expect(response.headers['x-request-id']).toBe('rid-keys');
  });

  test('names the route by its template, never by the path that holds the secret’s id', async () => {
    ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).resolves({ Attributes: { ...secretHead, data: DATA } });

    await claim();

    expect(requestLines()).toEqual([expect.objectContaining({ route: 'GET /api/v1/secrets/{id}', status: 200 })]);
    expect(printedText()).not.toContain(ID);
    expect(printedText()).not.toContain(DATA);
    expect(printedText()).not.toContain(caller.key);
  });

  test('refused requests are logged too, at INFO, with their status', async () => {
    const response = await invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', headers: bearer('svc_wrong'), requestId: 'rid-401' }));

    expect(response.statusCode).toBe(401);
    expect(requestLines()).toEqual([expect.objectContaining({ level: 'INFO', correlation_id: 'rid-401', status: 401 })]);
  });

  test('never holds the body or the headers of the request', async () => {
    ddb.on(PutCommand).resolves({});
    const body = JSON.stringify({ data: DATA, views: 2 });

    await invoke(secretsCreate, apiEvent({ method: 'POST', path: '/secrets', headers: jsonHeaders(bearer(caller.key)), body }));

    expect(requestLines()).toEqual([expect.objectContaining({ route: 'POST /api/v1/secrets', status: 201 })]);
    expect(printedText()).not.toContain(DATA);
    expect(printedText()).not.toContain(caller.key);
  });
});

describe('metrics', () => {
  const routeCounts = () => printedMetrics().map(({ service, [METRIC_DIMENSIONS.route]: route, ...counted }) => ({ service, route, counted }));

  test('a created secret counts SecretsCreated under its route, in the service namespace', async () => {
    ddb.on(PutCommand).resolves({});

    await invoke(
      secretsCreate,
      apiEvent({ method: 'POST', path: '/secrets', headers: jsonHeaders(bearer(caller.key)), body: JSON.stringify({ data: DATA }) }),
    );

    expect(routeCounts()).toEqual([{ service: SERVICE_NAME, route: 'POST /api/v1/secrets', counted: { [METRICS.secretsCreated]: 1 } }]);
    const emf = printedLines().find((line) => '_aws' in line);
    expect(JSON.stringify(emf)).toContain(`"Namespace":"${METRICS_NAMESPACE}"`);
  });

  test('a claim counts SecretsClaimed; a refused claim (404) counts ClaimsRefused', async () => {
    ddb
      .on(UpdateCommand, { TableName: TEST_ENV.secretsTable })
      .resolvesOnce({ Attributes: { ...secretHead, data: DATA } })
      .rejects(conditionFailed());
    ddb.on(DeleteCommand).resolves({});

    expect((await claim('rid-1')).statusCode).toBe(200);
    expect((await claim('rid-2')).statusCode).toBe(404);

    const route = 'GET /api/v1/secrets/{id}';
    expect(routeCounts()).toEqual([
      { service: SERVICE_NAME, route, counted: { [METRICS.secretsClaimed]: 1 } },
      { service: SERVICE_NAME, route, counted: { [METRICS.claimsRefused]: 1 } },
    ]);
  });

  test('a revoked secret counts SecretsRevoked; a request refused for its key counts nothing', async () => {
    ddb.on(DeleteCommand).resolves({ Attributes: { ...secretHead, owner: caller.hash } });
    const revoke = (key: string) =>
      invoke(secretsRevoke, apiEvent({ method: 'DELETE', path: `/secrets/${ID}`, pathParameters: { id: ID }, headers: bearer(key) }));

    expect((await revoke(caller.key)).statusCode).toBe(200);
    expect((await revoke('svc_wrong')).statusCode).toBe(401);

    expect(routeCounts()).toEqual([{ service: SERVICE_NAME, route: 'DELETE /api/v1/secrets/{id}', counted: { [METRICS.secretsRevoked]: 1 } }]);
  });

  test('routes that count nothing print no metric line', async () => {
    await invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', headers: bearer(caller.key) }));

    expect(printedMetrics()).toEqual([]);
  });
});

// The Logger reads the variable when it is built: a fresh copy of the modules, whose DynamoDB client
// the mock does not reach (the request fails; the event would be logged before it runs, if ever).
test('POWERTOOLS_LOGGER_LOG_EVENT=true does not make the functions log their events', async () => {
  process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
  try {
    await jest.isolateModulesAsync(async () => {
      const { handler } = (await import('#lambdas/routes/secrets-create')) as { handler: typeof secretsCreate };
      const body = JSON.stringify({ data: DATA });
      await invoke(handler, apiEvent({ method: 'POST', path: '/secrets', headers: jsonHeaders(bearer(caller.key)), body }));
    });
  } finally {
    delete process.env.POWERTOOLS_LOGGER_LOG_EVENT;
  }
  expect(requestLines()).toHaveLength(1);
  expect(printedText()).not.toContain(DATA);
  expect(printedText()).not.toContain(caller.key);
});
