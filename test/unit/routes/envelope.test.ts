import '../support/env';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { slotIndex } from '#lambdas/rules/sliding-window';
import { ERRORS } from '#contract/errors';
import { MAX_BODY_BYTES } from '#contract/limits';
import { handler as health } from '#lambdas/routes/health';
import { handler as keysCreate } from '#lambdas/routes/keys-create';
import { handler as keysGet } from '#lambdas/routes/keys-get';
import { handler as secretsClaim } from '#lambdas/routes/secrets-claim';
import { handler as secretsCreate } from '#lambdas/routes/secrets-create';
import { expectErrorBody, expectStandardHeaders } from '../support/assertions';
import { pinClock } from '../support/clock';
import { conditionFailed, mockDocumentClient, throttled } from '../support/dynamo';
import { TEST_ENV } from '../support/env';
import { apiEvent, bearer, invoke, jsonHeaders, type InvokeResult } from '../support/events';
import { apiKeyFixture, keyItem, serveKeyItem } from '../support/key-item';

/** Contract, "every response carries": the standard headers and x-request-id, on every status. */

const ddb = mockDocumentClient();
const now = 1_750_000_003_000;

beforeEach(() => {
  ddb.reset();
  pinClock(now);
});
afterEach(() => jest.restoreAllMocks());

function liveKey(rl: Record<string, number> = {}) {
  const fixture = apiKeyFixture();
  serveKeyItem(ddb, { item: keyItem(fixture.pk, { rl }) });
  return fixture;
}

/** POST /secrets of a live key with a body the scenario chooses: the refusals of a bad body. */
const createSecretWithBody = (body: string, requestId: string): Promise<InvokeResult> =>
  invoke(secretsCreate, apiEvent({ method: 'POST', path: '/secrets', headers: jsonHeaders(bearer(liveKey().key)), body, requestId }));

const scenarios: [number, string, () => Promise<InvokeResult>][] = [
  [200, 'GET /keys', () => invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', headers: bearer(liveKey().key), requestId: 'rid-200' }))],
  [
    201,
    'POST /keys',
    () => {
      ddb.on(UpdateCommand, { TableName: TEST_ENV.keysTable }).resolves({ Attributes: { log: [now] } });
      ddb.on(PutCommand).resolves({});
      return invoke(keysCreate, apiEvent({ method: 'POST', path: '/keys', requestId: 'rid-201' }));
    },
  ],
  [400, 'POST /secrets with invalid JSON', () => createSecretWithBody('{"data":', 'rid-400')],
  [401, 'GET /keys without credentials', () => invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', requestId: 'rid-401' }))],
  [
    404,
    'GET /secrets/:id of an unknown secret',
    () => {
      const { key } = liveKey();
      ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).rejects(conditionFailed());
      return invoke(
        secretsClaim,
        apiEvent({
          method: 'GET',
          path: '/secrets/AAAAAAAAAAAAAAAAAAAAAA',
          pathParameters: { id: 'AAAAAAAAAAAAAAAAAAAAAA' },
          headers: bearer(key),
          requestId: 'rid-404',
        }),
      );
    },
  ],
  [413, 'POST /secrets over 5 MiB', () => createSecretWithBody(JSON.stringify({ data: 'A'.repeat(MAX_BODY_BYTES) }), 'rid-413')],
  [
    429,
    'GET /keys over the rate limit',
    () =>
      invoke(
        keysGet,
        apiEvent({
          method: 'GET',
          path: '/keys',
          headers: bearer(liveKey({ [slotIndex(now)]: 100 }).key),
          requestId: 'rid-429',
        }),
      ),
  ],
  [
    500,
    'GET /keys when DynamoDB fails',
    () => {
      ddb.on(UpdateCommand).rejects(throttled());
      return invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', headers: bearer(apiKeyFixture().key), requestId: 'rid-500' }));
    },
  ],
  [
    503,
    'GET /health when DynamoDB fails',
    () => {
      ddb.on(GetCommand).rejects(throttled());
      return invoke(health, apiEvent({ method: 'GET', path: '/health', requestId: 'rid-503' }));
    },
  ],
];

describe.each(scenarios)('a %d response (%s)', (status, _label, run) => {
  test('has the status, the standard headers and the request id', async () => {
    const response = await run();
    expect(response.statusCode).toBe(status);
    expectStandardHeaders(response, `rid-${status}`);
  });

  if (status >= 400 && status !== 503) {
    test('has the error body {"error": string}', async () => {
      const response = await run();
      expectErrorBody(response);
    });
  }
});

test('a 500 says only "internal server error"', async () => {
  ddb.on(UpdateCommand).rejects(throttled());
  const response = await invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', headers: bearer(apiKeyFixture().key) }));
  expect(response.statusCode).toBe(500);
  expect(response.body).toEqual({ error: ERRORS.internal });
});

test('each request gets its own x-request-id, also when the gateway gives none', async () => {
  const event = apiEvent({ method: 'GET', path: '/keys' });
  const withoutId = { ...event, requestContext: { ...event.requestContext, requestId: undefined as unknown as string } };
  const first = await invoke(keysGet, withoutId);
  const second = await invoke(keysGet, withoutId);
  expect(first.headers['x-request-id']).toMatch(/\S/);
  expect(second.headers['x-request-id']).toMatch(/\S/);
  expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
});
