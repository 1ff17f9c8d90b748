import '../support/env';
import { createHash } from 'node:crypto';
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { hashApiKey } from '#lambdas/rules/api-keys';
import { ERRORS } from '#contract/errors';
import { EXPIRED_KEY_RETENTION_MS, KEY_CREATION_LIMIT, KEY_LIFETIME_MS } from '#contract/limits';
import { handler as keysCreate } from '#lambdas/routes/keys-create';
import { handler as keysDelete } from '#lambdas/routes/keys-delete';
import { handler as keysGet } from '#lambdas/routes/keys-get';
import { handler as keysUpdate } from '#lambdas/routes/keys-update';
import { handler as keysWebhookTest } from '#lambdas/routes/keys-webhook-test';
import { expectErrorBody, expectNoRateLimitHeaders, expectRateLimitHeaders, expectStandardHeaders } from '../support/assertions';
import { pinClock } from '../support/clock';
import { conditionFailed, mockDocumentClient, resolvedCondition, sentCommands } from '../support/dynamo';
import { TEST_ENV } from '../support/env';
import { apiEvent, bearer, invoke, jsonHeaders } from '../support/events';
import { apiKeyFixture, keyItem, serveKeyItem, type KeyItemState } from '../support/key-item';

const ddb = mockDocumentClient();
const now = 1_750_000_005_000;
const HOUR = KEY_CREATION_LIMIT.windowMs;
const sourceIp = '198.51.100.23';
const ipPk = `ip#${createHash('sha256').update(sourceIp).digest('hex')}`;

beforeEach(() => {
  ddb.reset();
  pinClock(now);
});
afterEach(() => jest.restoreAllMocks());

describe('POST /keys', () => {
  /** The address's attempt log as DynamoDB holds it; the append answers ALL_NEW like DynamoDB. */
  function ipLog(log: number[]) {
    ddb.on(UpdateCommand, { TableName: TEST_ENV.keysTable }).callsFake((input: UpdateCommandInput) => {
      const values = input.ExpressionAttributeValues as Record<string, unknown>;
      if (':pruned' in values) return {};
      const capacity = Number(/size\(log\) < (\d+)/.exec(resolvedCondition(input))?.[1]);
      if (log.length >= capacity) throw conditionFailed({ pk: ipPk, log, ttl: 1 });
      return { Attributes: { pk: ipPk, log: [...log, ...(values[':now'] as number[])] } };
    });
    ddb.on(PutCommand).resolves({});
  }
  const create = (body?: string, headers: Record<string, string> = body ? jsonHeaders() : {}) =>
    invoke(keysCreate, apiEvent({ method: 'POST', path: '/keys', sourceIp, headers, body: body ?? null, requestId: 'rid-k' }));
  const keyPut = () => sentCommands(ddb).find((c) => c.name === 'PutCommand')?.input;

  test('201 {key, expires, webhookSecret}: expires is exactly now + 90 days', async () => {
    ipLog([]);
    const response = await create();

    expect(response.statusCode).toBe(201);
    expectStandardHeaders(response, 'rid-k');
    const body = response.body as { key: string; expires: number; webhookSecret: string };
    expect(Object.keys(body).sort()).toEqual(['expires', 'key', 'webhookSecret']);
    expect(body.key).toMatch(/^svc_[A-Za-z0-9]{32}$/);
    expect(body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9]{32,}$/);
    expect(body.expires).toBe(now + KEY_LIFETIME_MS);
    expect(KEY_LIFETIME_MS).toBe(90 * 24 * 60 * 60 * 1000);
    expectNoRateLimitHeaders(response);
  });

  test('stores only the SHA-256 of the key, with the same expiry and webhook secret', async () => {
    ipLog([]);
    const body = (await create()).body as { key: string; expires: number; webhookSecret: string };
    const put = keyPut();
    expect(put).toMatchObject({
      TableName: TEST_ENV.keysTable,
      Item: {
        pk: `key#${hashApiKey(body.key)}`,
        created: now,
        expires: body.expires,
        webhookSecret: body.webhookSecret,
        ttl: Math.ceil((body.expires + EXPIRED_KEY_RETENTION_MS) / 1000),
      },
    });
    // A repeat of the put may rewrite its own key only.
    expect(resolvedCondition(put!)).toBe(`attribute_not_exists(pk) OR webhookSecret = "${body.webhookSecret}"`);
    expect(JSON.stringify(sentCommands(ddb))).not.toContain(body.key);
    expect(JSON.stringify(sentCommands(ddb))).not.toContain(sourceIp);
  });

  test('records the attempt under a hash of the client address', async () => {
    ipLog([]);
    await create();
    const update = sentCommands(ddb).find((c) => c.name === 'UpdateCommand');
    expect(update?.input).toMatchObject({ Key: { pk: ipPk } });
  });

  test('two keys differ', async () => {
    ipLog([]);
    const first = (await create()).body as { key: string; webhookSecret: string };
    const second = (await create()).body as { key: string; webhookSecret: string };
    expect(first.key).not.toBe(second.key);
    expect(first.webhookSecret).not.toBe(second.webhookSecret);
  });

  test('stores a valid webhook', async () => {
    ipLog([]);
    const response = await create(JSON.stringify({ webhook: 'https://hooks.example.com/in' }));
    expect(response.statusCode).toBe(201);
    expect(keyPut()?.Item).toMatchObject({ webhook: 'https://hooks.example.com/in' });
  });

  test.each([
    ['http://hooks.example.com/in', ERRORS.webhook],
    ['https://127.0.0.1/in', ERRORS.webhookHostNotPublic],
    ['https://localhost/in', ERRORS.webhookHostNotPublic],
    ['', ERRORS.webhook],
  ])('400 for the webhook %j, and no key issued', async (webhook, message) => {
    ipLog([]);
    const response = await create(JSON.stringify({ webhook }));
    expect(response.statusCode).toBe(400);
    expectErrorBody(response, message);
    expect(keyPut()).toBeUndefined();
  });

  test('400 for unknown fields and for a body that is not JSON', async () => {
    ipLog([]);
    expectErrorBody(await create(JSON.stringify({ hook: 'x' })), ERRORS.unknownField('hook'));
    expectErrorBody(await create('webhook=x', { 'Content-Type': 'application/x-www-form-urlencoded' }), ERRORS.contentType);
    expect(keyPut()).toBeUndefined();
  });

  test('the 20th attempt in an hour is served; the 21st: 429 with retry-after, no key issued', async () => {
    const earlier = Array.from({ length: 19 }, (_, i) => now - 40 * 60_000 + i * 60_000);
    ipLog(earlier);
    expect((await create()).statusCode).toBe(201);

    ddb.reset();
    ipLog([...earlier, now - 1]);
    const response = await create();

    expect(response.statusCode).toBe(429);
    expectStandardHeaders(response, 'rid-k');
    expectErrorBody(response, ERRORS.keyCreationLimited);
    // Attempts count, refused ones too: 21 now, so two must leave the hour before one more fits.
    expect(response.headers['retry-after']).toBe(String(Math.ceil((earlier[1]! + HOUR - now) / 1000)));
    expect(keyPut()).toBeUndefined();
  });

  test('an address whose attempt log is full but mostly older than an hour still gets a key', async () => {
    // 40 attempts (twice the limit), one every 50 minutes: the item never expired, the log is full.
    const log = Array.from({ length: 40 }, (_, i) => now - (40 - i) * 50 * 60_000);
    ipLog(log);
    const response = await create();
    expect(response.statusCode).toBe(201);
  });
});

describe('authenticated key routes', () => {
  let caller: ReturnType<typeof apiKeyFixture>;
  let state: { item: KeyItemState | undefined };

  function withKey(overrides: Partial<KeyItemState> = {}) {
    caller = apiKeyFixture();
    state = { item: keyItem(caller.pk, { created: now - 5000, ...overrides }) };
    serveKeyItem(ddb, state);
    ddb.on(DeleteCommand).callsFake(() => {
      if (!state.item) throw conditionFailed();
      state.item = undefined;
      return {};
    });
  }
  const get = () => invoke(keysGet, apiEvent({ method: 'GET', path: '/keys', headers: bearer(caller.key) }));
  const patch = (body: string | null) =>
    invoke(keysUpdate, apiEvent({ method: 'PATCH', path: '/keys', headers: jsonHeaders(bearer(caller.key)), body }));
  const del = () => invoke(keysDelete, apiEvent({ method: 'DELETE', path: '/keys', headers: bearer(caller.key) }));

  test('GET /keys: {hint, created, expires, webhookSecret}, webhook absent when none', async () => {
    withKey();
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(response.body).toStrictEqual({
      hint: `svc_****${caller.key.slice(-4)}`,
      created: now - 5000,
      expires: now - 5000 + KEY_LIFETIME_MS,
      webhookSecret: state.item!.webhookSecret,
    });
    expectRateLimitHeaders(response, now, 99);
  });

  describe('POST /keys/webhook/test', () => {
    const sqs = mockClient(SQSClient);
    const jobsQueueUrl = 'https://sqs.us-east-1.amazonaws.com/000000000000/unit-webhook-jobs';
    beforeEach(() => {
      sqs.reset();
      sqs.on(SendMessageCommand).resolves({});
      process.env.WEBHOOK_QUEUE_URL = jobsQueueUrl;
    });
    const sendTest = () => invoke(keysWebhookTest, apiEvent({ method: 'POST', path: '/keys/webhook/test', headers: bearer(caller.key) }));

    test('202 {eventId}: a webhook.test job for the key, on the jobs queue', async () => {
      withKey({ webhook: 'https://hooks.example.com/in' });
      const response = await sendTest();
      expect(response.statusCode).toBe(202);
      const { eventId } = response.body as { eventId: string };
      expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);
      const sent = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
      expect(sent).toEqual([{ QueueUrl: jobsQueueUrl, MessageBody: expect.any(String) }]);
      expect(JSON.parse(sent[0]?.MessageBody ?? '')).toEqual({
        eventId,
        owner: caller.hash,
        event: { event: 'webhook.test', timestamp: now, data: {} },
      });
      expectRateLimitHeaders(response, now, 99);
    });

    test('400 naming the problem when the key has no webhook, and nothing queued', async () => {
      withKey();
      const response = await sendTest();
      expect(response.statusCode).toBe(400);
      expectErrorBody(response, ERRORS.noWebhook);
      expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
    });
  });

  test('GET /keys shows the webhook when set', async () => {
    withKey({ webhook: 'https://hooks.example.com/in' });
    expect((await get()).body).toMatchObject({ webhook: 'https://hooks.example.com/in' });
  });

  test('PATCH /keys sets the webhook, then "" removes it', async () => {
    withKey();
    const set = await patch(JSON.stringify({ webhook: 'https://hooks.example.com/new' }));
    expect(set.statusCode).toBe(200);
    expect(set.body).toStrictEqual({ updated: true });
    expect((await get()).body).toMatchObject({ webhook: 'https://hooks.example.com/new' });

    const removed = await patch(JSON.stringify({ webhook: '' }));
    expect(removed.body).toStrictEqual({ updated: true });
    expect((await get()).body).not.toHaveProperty('webhook');
  });

  test.each([
    ['{}', ERRORS.webhookRequired],
    ['{"webhook": null}', ERRORS.webhookRequired],
    ['{"webhook": "http://hooks.example.com/"}', ERRORS.webhook],
    ['{"webhook": "https://10.0.0.1/"}', ERRORS.webhookHostNotPublic],
    ['{"webhook": "", "extra": 1}', ERRORS.unknownField('extra')],
  ])('PATCH /keys with %s: 400', async (body, message) => {
    withKey({ webhook: 'https://hooks.example.com/keep' });
    const response = await patch(body);
    expect(response.statusCode).toBe(400);
    expectErrorBody(response, message);
    expect((await get()).body).toMatchObject({ webhook: 'https://hooks.example.com/keep' });
  });

  test('PATCH /keys without a body: 400 body required', async () => {
    withKey();
    expectErrorBody(await patch(null), ERRORS.bodyRequired);
  });

  test('DELETE /keys: {deleted: true}, and the next request with the key gets 401', async () => {
    withKey();
    const response = await del();
    expect(response.statusCode).toBe(200);
    expect(response.body).toStrictEqual({ deleted: true });
    expect(sentCommands(ddb).find((c) => c.name === 'DeleteCommand')?.input).toMatchObject({
      TableName: TEST_ENV.keysTable,
      Key: { pk: caller.pk },
    });
    const after = await get();
    expect(after.statusCode).toBe(401);
    expectErrorBody(after, ERRORS.invalidApiKey);
  });
});
