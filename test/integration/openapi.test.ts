import { MAX_BODY_BYTES, RATE_LIMIT } from '#contract/limits';
import { api, createKey, freshClientAddress, requestPublicKey, usedUpClientAddress, type ApiRequest, type ApiResponse } from '../support/api';
import { undocumented } from '../support/openapi';

/** Real answers of local mode against docs/openapi.json: statuses, headers and bodies. */

const seen = new Set<string>();

async function expectDocumented(method: string, path: string, options: ApiRequest = {}): Promise<ApiResponse> {
  const response = await api(method, path, options);
  const template = path.replace(/^\/(secrets|requests)\/[^/]+$/, '/$1/{id}');
  seen.add(`${method} ${template} ${response.status}`);
  expect(undocumented(method, path, response)).toEqual([]);
  return response;
}

let key: string;
beforeAll(async () => {
  key = (await createKey()).key;
});

test('health', async () => {
  expect((await expectDocumented('GET', '/health')).status).toBe(200);
});

test('keys: create, show, update, revoke, and their errors', async () => {
  const address = freshClientAddress();
  expect((await expectDocumented('POST', '/keys', { localAddress: address })).status).toBe(201);
  expect((await expectDocumented('POST', '/keys', { localAddress: address, json: { webhook: 'ftp://x' } })).status).toBe(400);
  const own = (await createKey()).key;
  expect((await expectDocumented('GET', '/keys', { key: own })).status).toBe(200);
  expect((await expectDocumented('PATCH', '/keys', { key: own, json: { webhook: 'https://hooks.example.com/a' } })).status).toBe(200);
  expect((await expectDocumented('GET', '/keys', { key: own })).status).toBe(200);
  expect((await expectDocumented('PATCH', '/keys', { key: own, json: { webhook: 42 } })).status).toBe(400);
  expect((await expectDocumented('DELETE', '/keys', { key: own })).status).toBe(200);
  expect((await expectDocumented('GET', '/keys', { key: own })).status).toBe(401);
  expect((await expectDocumented('GET', '/keys')).status).toBe(401);
});

test('secrets: create, claim, revoke, and their errors', async () => {
  const created = await expectDocumented('POST', '/secrets', { key, json: { data: 'aGk=', views: 2 } });
  const path = `/secrets/${String(created.body.id)}`;
  expect((await expectDocumented('GET', path, { key })).status).toBe(200);
  expect((await expectDocumented('DELETE', path, { key })).status).toBe(200);
  expect((await expectDocumented('GET', path, { key })).status).toBe(404);
  expect((await expectDocumented('DELETE', path, { key })).status).toBe(404);
  expect((await expectDocumented('POST', '/secrets', { key, json: { data: 'aGk=', view: 1 } })).status).toBe(400);
  const overLimit = { key, headers: { 'content-type': 'application/json' }, rawBody: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20) };
  expect((await expectDocumented('POST', '/secrets', overLimit)).status).toBe(413);

  // A passphrase-gated secret claimed without its proof: 403 with the attempts left.
  const gated = await expectDocumented('POST', '/secrets', { key, json: { data: 'aGk=', gate: 'UXOJ9El4kqvBfGFk9av3nYXFBHTqhs94EZH74wCB0FU' } });
  expect((await expectDocumented('GET', `/secrets/${String(gated.body.id)}`, { key })).status).toBe(403);

  const file = { data: 'aGk=', type: 'file', filename: 'AQID', mimetype: 'application/pdf' };
  const fileSecret = await expectDocumented('POST', '/secrets', { key, json: file });
  expect((await expectDocumented('GET', `/secrets/${String(fileSecret.body.id)}`, { key })).status).toBe(200);
});

test('requests: create, read, fulfil once, and the 409s of a fulfilled request', async () => {
  const created = await expectDocumented('POST', '/requests', { key, json: { publicKey: requestPublicKey(), ttl: '1h' } });
  const path = `/requests/${String(created.body.id)}`;
  expect((await expectDocumented('GET', path, { key })).status).toBe(200);
  expect((await expectDocumented('POST', path, { key, json: { data: 'aGk=' } })).status).toBe(201);
  expect((await expectDocumented('POST', path, { key, json: { data: 'aGk=' } })).status).toBe(409);
  expect((await expectDocumented('GET', path, { key })).status).toBe(409);
});

test('429: over the per-key rate limit, with retry-after', async () => {
  const limited = (await createKey()).key;
  // One at a time: a hundred at once on one key item overloaded a busy machine's DynamoDB Local
  // into 503s (uncounted), and the limit was never reached. A 503 is sent again, not counted on.
  const statuses: number[] = [];
  while (!statuses.includes(429) && statuses.length <= 2 * RATE_LIMIT.requests) {
    statuses.push((await api('GET', '/keys', { key: limited })).status);
  }
  expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(RATE_LIMIT.requests);
  expect(statuses).toContain(429);
  expect((await expectDocumented('GET', '/keys', { key: limited })).status).toBe(429);
});

test('429: over the key-creation limit per address', async () => {
  const address = usedUpClientAddress();
  let status = 0;
  for (let attempt = 0; attempt <= 20 && status !== 429; attempt++) {
    status = (await expectDocumented('POST', '/keys', { localAddress: address })).status;
  }
  expect(status).toBe(429);
});

afterAll(() => {
  // Every success the document promises was met at least once.
  for (const expected of [
    'GET /health 200',
    'POST /keys 201',
    'GET /keys 200',
    'PATCH /keys 200',
    'DELETE /keys 200',
    'POST /secrets 201',
    'GET /secrets/{id} 200',
    'DELETE /secrets/{id} 200',
    'POST /requests 201',
    'GET /requests/{id} 200',
    'POST /requests/{id} 201',
  ]) {
    expect(seen).toContain(expected);
  }
});
