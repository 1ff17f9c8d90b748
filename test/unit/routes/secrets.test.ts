import '../support/env';
import type { PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ERRORS } from '#contract/errors';
import { DATA_CHUNK_BYTES, MAX_BODY_BYTES, SECRET_TTLS, STORE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '#contract/limits';
import { SECRET_HEAD_SK, secretChunkKey } from '#lambdas/definitions/tables';
import { handler as secretsClaim } from '#lambdas/routes/secrets-claim';
import { handler as secretsCreate } from '#lambdas/routes/secrets-create';
import { handler as secretsRevoke } from '#lambdas/routes/secrets-revoke';
import { expectErrorBody, expectStandardHeaders } from '../support/assertions';
import { pinClock } from '../support/clock';
import { conditionFailed, invalidRequest, mockDocumentClient, sentCommands, throttled } from '../support/dynamo';
import { TEST_ENV } from '../support/env';
import { apiEvent, bearer, invoke, jsonHeaders } from '../support/events';
import { apiKeyFixture, keyItem, serveKeyItem } from '../support/key-item';
import { loadRoute } from '../support/route-with-env';
import { printedLines, printedText } from '../support/printed';

const ddb = mockDocumentClient();
const now = 1_750_000_004_000;
const SITE = TEST_ENV.siteUrl.replace(/\/+$/, '');
let caller: ReturnType<typeof apiKeyFixture>;

beforeEach(() => {
  ddb.reset();
  pinClock(now);
  caller = apiKeyFixture();
  serveKeyItem(ddb, { item: keyItem(caller.pk) });
});
afterEach(() => jest.restoreAllMocks());

const post = (body: string | null, headers: Record<string, string> = jsonHeaders(bearer(caller.key)), requestId?: string) =>
  invoke(secretsCreate, apiEvent({ method: 'POST', path: '/secrets', headers, body, ...(requestId ? { requestId } : {}) }));
const claim = (id: string) =>
  invoke(secretsClaim, apiEvent({ method: 'GET', path: `/secrets/${id}`, pathParameters: { id }, headers: bearer(caller.key) }));
const revoke = (id: string) =>
  invoke(secretsRevoke, apiEvent({ method: 'DELETE', path: `/secrets/${id}`, pathParameters: { id }, headers: bearer(caller.key) }));

const secretCommands = () => sentCommands(ddb).filter((c) => c.input.TableName === TEST_ENV.secretsTable || 'RequestItems' in c.input);
const headPut = () => secretCommands().find((c) => c.name === 'PutCommand')?.input as PutCommandInput | undefined;

describe('POST /secrets', () => {
  beforeEach(() => {
    ddb.on(PutCommand).resolves({});
    ddb.on(BatchWriteCommand).resolves({});
  });

  test('201 {id, url}: url is SITE_URL (trailing / dropped) + "/" + id; id is 22 URL-safe characters', async () => {
    const response = await post(JSON.stringify({ data: 'c2VjcmV0' }));
    expect(response.statusCode).toBe(201);
    const body = response.body as { id: string; url: string };
    expect(Object.keys(body).sort()).toEqual(['id', 'url']);
    expect(body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(body.url).toBe(`${SITE}/${body.id}`);
    expect(headPut()?.Item).toMatchObject({ pk: body.id, sk: SECRET_HEAD_SK });
  });

  test('ids differ between secrets', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add(((await post(JSON.stringify({ data: 'c2VjcmV0' }))).body as { id: string }).id);
    expect(ids.size).toBe(20);
  });

  test("stores the defaults (views 1, type text, ttl 1d) with the caller's key hash as owner", async () => {
    await post(JSON.stringify({ data: 'c2VjcmV0' }));
    expect(headPut()?.Item).toMatchObject({
      owner: caller.hash,
      data: Buffer.from('c2VjcmV0', 'base64'),
      type: 'text',
      views: 1,
      remaining: 1,
      created: now,
      expires: now + SECRET_TTLS['1d'],
    });
    expect(JSON.stringify(sentCommands(ddb))).not.toContain(caller.key);
  });

  test.each(Object.entries(SECRET_TTLS))('ttl %s expires %d ms after creation', async (ttl, ms) => {
    await post(JSON.stringify({ data: 'c2VjcmV0', ttl, views: 3 }));
    expect(headPut()?.Item).toMatchObject({ expires: now + ms, views: 3, remaining: 3 });
  });

  test('a file secret keeps filename and mimetype', async () => {
    await post(JSON.stringify({ data: 'c2VjcmV0', type: 'file', filename: 'a.pdf', mimetype: 'application/pdf' }));
    expect(headPut()?.Item).toMatchObject({ type: 'file', filename: 'a.pdf', mimetype: 'application/pdf' });
  });

  test.each([
    ['views 0', { data: 'c2VjcmV0', views: 0 }, ERRORS.views],
    ['views "2"', { data: 'c2VjcmV0', views: '2' }, ERRORS.views],
    ['ttl "2d"', { data: 'c2VjcmV0', ttl: '2d' }, ERRORS.ttl],
    ['unknown field view', { data: 'c2VjcmV0', view: 2 }, ERRORS.unknownField('view')],
    ['data base64url', { data: 'c2Vj-_Jl' }, ERRORS.data],
    ['filename with text', { data: 'c2VjcmV0', filename: 'a' }, ERRORS.fileFieldsNeedFileType('filename')],
  ])('400 for %s, naming the field; nothing stored', async (_label, body, message) => {
    const response = await post(JSON.stringify(body));
    expect(response.statusCode).toBe(400);
    expectErrorBody(response, message);
    expect(secretCommands()).toHaveLength(0);
  });

  test.each([
    ['invalid JSON', '{"data": "c2VjcmV0"', ERRORS.invalidJson],
    // Middy's parser refuses prototype keys outright; they never reach the schema.
    ['a __proto__ key', '{"__proto__": {"admin": true}, "data": "c2VjcmV0"}', ERRORS.invalidJson],
    ['a JSON array', '["c2VjcmV0"]', ERRORS.notAnObject],
    ['a JSON string', '"c2VjcmV0"', ERRORS.notAnObject],
    ['JSON null', 'null', ERRORS.notAnObject],
    ['no body', null, ERRORS.bodyRequired],
    ['an empty body', '', ERRORS.bodyRequired],
  ])('400 for %s', async (_label, body, message) => {
    const response = await post(body);
    expect(response.statusCode).toBe(400);
    expectErrorBody(response, message);
    expect(secretCommands()).toHaveLength(0);
  });

  test.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp', ''])('400 for Content-Type %j', async (contentType) => {
    const response = await post(JSON.stringify({ data: 'c2VjcmV0' }), { ...bearer(caller.key), 'Content-Type': contentType });
    expect(response.statusCode).toBe(400);
    expectErrorBody(response, ERRORS.contentType);
  });

  test('400 when a JSON body has no Content-Type at all', async () => {
    const response = await post(JSON.stringify({ data: 'c2VjcmV0' }), bearer(caller.key));
    expect(response.statusCode).toBe(400);
    expectErrorBody(response, ERRORS.contentType);
  });

  test.each(['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'])(
    'accepts Content-Type %j',
    async (contentType) => {
      const response = await post(JSON.stringify({ data: 'c2VjcmV0' }), { ...bearer(caller.key), 'content-type': contentType });
      expect(response.statusCode).toBe(201);
    },
  );

  test('accepts a base64-encoded event body (binary media types on the gateway)', async () => {
    const body = Buffer.from(JSON.stringify({ data: 'c2VjcmV0' })).toString('base64');
    const response = await invoke(
      secretsCreate,
      apiEvent({ method: 'POST', path: '/secrets', headers: jsonHeaders(bearer(caller.key)), body, isBase64Encoded: true }),
    );
    expect(response.statusCode).toBe(201);
    expect(headPut()?.Item).toMatchObject({ data: Buffer.from('c2VjcmV0', 'base64') });
  });

  test('413 for a body of 5 MiB + 1 byte; nothing stored', async () => {
    const data = 'A'.repeat(MAX_BODY_BYTES - 12);
    const body = JSON.stringify({ data }) + '  ';
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES + 1);
    const response = await post(body, jsonHeaders(bearer(caller.key)), 'rid-413');
    expect(response.statusCode).toBe(413);
    expectErrorBody(response, ERRORS.payloadTooLarge);
    expectStandardHeaders(response, 'rid-413');
    expect(secretCommands()).toHaveLength(0);
  });

  test('413 counts bytes, not characters', async () => {
    const body = JSON.stringify({ data: 'c2VjcmV0', pad: 'é'.repeat(MAX_BODY_BYTES / 2) });
    expect(body.length).toBeLessThan(MAX_BODY_BYTES);
    expect((await post(body)).statusCode).toBe(413);
  });

  test('a body of exactly 5 MiB is accepted and stored in chunks', async () => {
    const overhead = JSON.stringify({ data: '' }).length;
    const data = 'QUJD'.repeat(Math.floor((MAX_BODY_BYTES - overhead) / 4));
    const body = JSON.stringify({ data }).padEnd(MAX_BODY_BYTES, ' ');
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);

    const response = await post(body);

    expect(response.statusCode).toBe(201);
    const chunks = secretCommands()
      .filter((c) => c.name === 'BatchWriteCommand')
      .flatMap((c) => (c.input.RequestItems as Record<string, { PutRequest: { Item: { data: Uint8Array } } }[]>)[TEST_ENV.secretsTable]!)
      .map((request) => request.PutRequest.Item.data);
    expect(chunks.every((chunk) => chunk instanceof Uint8Array)).toBe(true);
    expect(chunks.map((chunk) => Buffer.from(chunk).toString('base64')).join('')).toBe(data);
    expect(headPut()?.Item).toMatchObject({ chunks: Math.ceil(data.length / DATA_CHUNK_BYTES) });
  });

  test('a DynamoDB that does not answer: 503 with retry-after, logged with the error, and nothing logged holds the data or the API key', async () => {
    ddb.on(PutCommand).rejects(throttled()).on(GetCommand).resolves({});
    const data = Buffer.from('the launch codes are 0000').toString('base64');

    const response = await post(JSON.stringify({ data }), jsonHeaders(bearer(caller.key)), 'rid-503');

    expect(response.statusCode).toBe(503);
    expect(response.body).toEqual({ error: ERRORS.storeUnavailable });
    expect(response.headers['retry-after']).toBe(String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS));
    expectStandardHeaders(response, 'rid-503');
    expect(printedLines()).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        correlation_id: 'rid-503',
        status: 503,
        error: expect.objectContaining({ name: 'StoreUnavailable' }),
      }),
    );
    expect(printedText()).not.toContain(data);
    expect(printedText()).not.toContain(caller.key);
  });

  test('a request DynamoDB refuses as malformed (a bug of ours): 500 internal server error, logged with the error', async () => {
    ddb.on(PutCommand).rejects(invalidRequest());
    const response = await post(JSON.stringify({ data: 'QUJD' }), jsonHeaders(bearer(caller.key)), 'rid-500');
    expect(response.statusCode).toBe(500);
    expect(response.body).toEqual({ error: ERRORS.internal });
    expect(printedLines()).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        correlation_id: 'rid-500',
        status: 500,
        error: { name: invalidRequest().name, message: invalidRequest().message },
      }),
    );
  });

  test('a failure writing chunks: 503, the data not logged, and no head written', async () => {
    ddb.on(BatchWriteCommand).rejects(throttled());
    const data = 'QUJD'.repeat(DATA_CHUNK_BYTES / 4 + 1);
    const response = await post(JSON.stringify({ data }));
    expect(response.statusCode).toBe(503);
    expect(printedLines()).toContainEqual(expect.objectContaining({ level: 'ERROR', status: 503 }));
    expect(printedText()).not.toContain(data.slice(0, 64));
    expect(headPut()).toBeUndefined();
  });
});

const headItem = (overrides: Record<string, unknown> = {}) => ({
  pk: 'x',
  sk: SECRET_HEAD_SK,
  owner: 'someone',
  type: 'text',
  views: 2,
  remaining: 1,
  created: now - 1000,
  expires: now + 3_600_000,
  ttl: 0,
  ...overrides,
});
const ID = 'AbCdEfGhIjKlMnOpQrSt_-';

describe('GET /secrets/:id', () => {
  test('200 {data, type, filename: null, mimetype: null, remaining}', async () => {
    ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).resolves({ Attributes: headItem({ data: 'c2VjcmV0' }) });
    const response = await claim(ID);
    expect(response.statusCode).toBe(200);
    expect(response.body).toStrictEqual({ data: 'c2VjcmV0', type: 'text', filename: null, mimetype: null, remaining: 1 });
    const update = secretCommands().find((c) => c.name === 'UpdateCommand');
    expect(update?.input).toMatchObject({ Key: { pk: ID, sk: SECRET_HEAD_SK }, ExpressionAttributeValues: { ':now': now } });
  });

  test('a file secret returns its filename and mimetype; the last view says remaining 0', async () => {
    ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).resolves({
      Attributes: headItem({ data: 'c2VjcmV0', type: 'file', filename: 'a.pdf', mimetype: 'application/pdf', remaining: 0 }),
    });
    ddb.on(DeleteCommand).resolves({});
    const response = await claim(ID);
    expect(response.body).toStrictEqual({
      data: 'c2VjcmV0',
      type: 'file',
      filename: 'a.pdf',
      mimetype: 'application/pdf',
      remaining: 0,
    });
  });

  test('a chunked secret is returned whole', async () => {
    const parts = ['QUJD', 'REVG', 'R0hJ'];
    ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).resolves({ Attributes: headItem({ chunks: 3 }) });
    ddb.on(BatchGetCommand).resolves({
      Responses: { [TEST_ENV.secretsTable]: [2, 0, 1].map((i) => ({ ...secretChunkKey(ID, i), data: parts[i] })) },
    });
    expect((await claim(ID)).body).toMatchObject({ data: parts.join(''), remaining: 1 });
  });

  test('404 secret not found when the claim condition fails (unknown, claimed out or expired)', async () => {
    ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).rejects(conditionFailed());
    const response = await claim(ID);
    expect(response.statusCode).toBe(404);
    expectErrorBody(response, ERRORS.secretNotFound);
  });

  describe('a gated secret', () => {
    const proof = 'i_PQi6-TyScqA9MAukcC98EiwpEjDZBynQ3TKvtyUXA';
    // SHA-256 of that proof (client/test-vectors-v2.json).
    const gate = 'UXOJ9El4kqvBfGFk9av3nYXFBHTqhs94EZH74wCB0FU';
    const claimWith = (headers: Record<string, string>) =>
      invoke(
        secretsClaim,
        apiEvent({ method: 'GET', path: `/secrets/${ID}`, pathParameters: { id: ID }, headers: { ...bearer(caller.key), ...headers } }),
      );

    test('the proof’s SHA-256 goes into the claim’s condition; the right one answers 200', async () => {
      ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).resolves({ Attributes: headItem({ data: 'c2VjcmV0', gate, attempts: 5 }) });
      const response = await claimWith({ 'X-Secret-Proof': proof });
      expect(response.statusCode).toBe(200);
      expect(Object.values(secretCommands()[0]?.input.ExpressionAttributeValues ?? {})).toContain(gate);
    });

    test('no proof: 403 passphrase required, with the attempts left', async () => {
      ddb.on(UpdateCommand, { TableName: TEST_ENV.secretsTable }).rejects(conditionFailed(headItem({ gate, attempts: 4 })));
      const response = await claim(ID);
      expect(response.statusCode).toBe(403);
      expectErrorBody(response, ERRORS.passphraseRequired);
      expect(response.headers['x-secret-attempts-left']).toBe('4');
    });

    test('a wrong proof: 403 wrong passphrase, with the attempts its count left', async () => {
      ddb
        .on(UpdateCommand, { TableName: TEST_ENV.secretsTable })
        .rejectsOnce(conditionFailed(headItem({ gate, attempts: 4 })))
        .resolves({ Attributes: { attempts: 3 } });
      const response = await claimWith({ 'x-secret-proof': `${proof.slice(0, -1)}E` });
      expect(response.statusCode).toBe(403);
      expectErrorBody(response, ERRORS.wrongPassphrase);
      expect(response.headers['x-secret-attempts-left']).toBe('3');
    });
  });

  test.each(['short', 'AbCdEfGhIjKlMnOpQrStUvW', 'AbCdEfGhIjKlMnOpQrSt.-', 'AbCdEfGhIjKlMnOpQrSt%2'])(
    '404 for the malformed id %j without touching the secrets table',
    async (id) => {
      const response = await claim(id);
      expect(response.statusCode).toBe(404);
      expectErrorBody(response, ERRORS.secretNotFound);
      expect(secretCommands()).toHaveLength(0);
    },
  );
});

describe('DELETE /secrets/:id', () => {
  test('200 {deleted: true}; the delete is conditioned on the caller being the owner', async () => {
    ddb.on(DeleteCommand).resolves({ Attributes: headItem({ owner: caller.hash, data: 'x' }) });
    const response = await revoke(ID);
    expect(response.statusCode).toBe(200);
    expect(response.body).toStrictEqual({ deleted: true });
    const input = secretCommands().find((c) => c.name === 'DeleteCommand')?.input;
    expect(input).toMatchObject({ Key: { pk: ID, sk: SECRET_HEAD_SK } });
    expect(Object.values(input?.ExpressionAttributeValues as Record<string, unknown>)).toContain(caller.hash);
  });

  test('404 for a secret the caller does not own, exactly as for an unknown one', async () => {
    ddb.on(DeleteCommand).rejects(conditionFailed());
    const response = await revoke(ID);
    expect(response.statusCode).toBe(404);
    expectErrorBody(response, ERRORS.secretNotFound);
  });

  test('404 for a malformed id without touching the secrets table', async () => {
    const response = await revoke('../keys');
    expect(response.statusCode).toBe(404);
    expect(secretCommands()).toHaveLength(0);
  });
});

describe('a function deployed with its own environment (loadRoute)', () => {
  test('SITE_URL with a path: links are built under it, as the stack or npm start would set it', async () => {
    ddb.on(PutCommand).resolves({});
    const create = loadRoute('secrets-create', { SITE_URL: 'https://share.example.org/team/' });

    const response = await invoke(
      create,
      apiEvent({ method: 'POST', path: '/secrets', headers: jsonHeaders(bearer(caller.key)), body: JSON.stringify({ data: 'c2VjcmV0' }) }),
    );

    expect(response.statusCode).toBe(201);
    const { id, url } = response.body as { id: string; url: string };
    expect(url).toBe(`https://share.example.org/team/${id}`);
    // Through the DynamoDB mock of this file: the copy shares the SDK's classes.
    expect(headPut()?.Item).toMatchObject({ pk: id, sk: SECRET_HEAD_SK });
    // The route module of this file keeps the SITE_URL it was loaded with.
    expect(((await post(JSON.stringify({ data: 'c2VjcmV0' }))).body as { url: string }).url.startsWith(`${SITE}/`)).toBe(true);
  });

  test("PASSPHRASE_ATTEMPTS: a gated secret's head gets the deployment's attempts", async () => {
    ddb.on(PutCommand).resolves({});
    const create = loadRoute('secrets-create', { PASSPHRASE_ATTEMPTS: '3' });
    const body = JSON.stringify({ data: 'c2VjcmV0', gate: 'UXOJ9El4kqvBfGFk9av3nYXFBHTqhs94EZH74wCB0FU' });

    expect((await invoke(create, apiEvent({ method: 'POST', path: '/secrets', headers: jsonHeaders(bearer(caller.key)), body }))).statusCode).toBe(
      201,
    );
    expect(headPut()?.Item).toMatchObject({ attempts: 3 });
  });

  test('a SITE_URL the function cannot use fails its load, naming the variable', () => {
    expect(() => loadRoute('secrets-create', { SITE_URL: 'share.example.org' })).toThrow('SITE_URL must be an absolute http(s) URL');
  });
});
