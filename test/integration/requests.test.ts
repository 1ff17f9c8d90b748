import { ERRORS } from '#contract/errors';
import { REQUEST_NOTE_MAX_LENGTH } from '#contract/requests';
import { api, base64Of, createKey, createRequest, requestPublicKey } from '../support/api';
import { eventually } from '../support/eventually';
import { closeStore, expireSecret, itemsOfSecret } from './support/store';

/**
 * Secret requests against local mode (docs/api.md, "Secret requests"): a requester's key asks,
 * any key answers once, the answer is a one-view secret of the requester's key.
 */

afterAll(closeStore);

const get = (key: string, id: string) => api('GET', `/requests/${id}`, { key });
const fulfil = (key: string, id: string, json: Record<string, unknown>) => api('POST', `/requests/${id}`, { key, json });
const status = (key: string, id: string) => api('GET', `/requests/${id}/status`, { key });
const claim = (key: string, id: string) => api('GET', `/secrets/${id}`, { key });
const receipt = (key: string, id: string) => api('GET', `/secrets/${id}/status`, { key });

let requester: string;
let sender: string;
beforeAll(async () => {
  requester = (await createKey()).key;
  sender = (await createKey()).key;
});

test('create, read by the sender, fulfil once (409 after), then the requester reads the answer once', async () => {
  const publicKey = requestPublicKey();
  const before = Date.now();
  const created = await api<{ id: string; url: string; expires: number }>('POST', '/requests', {
    key: requester,
    json: { publicKey, note: 'the staging database password\nplease', ttl: '1h' },
  });
  expect(created.status).toBe(201);
  const { id, url, expires } = created.body;
  expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(url).toMatch(new RegExp(`/r/${id}$`));
  expect(expires).toBeGreaterThanOrEqual(before + 3_600_000);

  expect(await get(sender, id)).toMatchObject({ status: 200, body: { publicKey, note: 'the staging database password\nplease', expires } });
  expect(await status(requester, id)).toMatchObject({ status: 200, body: { state: 'open', publicKey, secret: null, fulfilledAt: null, expires } });
  // Nobody but the requester's key learns the state: the 404 of an unknown id.
  expect(await status(sender, id)).toMatchObject({ status: 404, body: { error: ERRORS.requestNotFound } });
  // Nothing to claim yet, for anyone.
  expect((await claim(requester, id)).status).toBe(404);

  const answer = { data: base64Of(200, 3), type: 'file', filename: 'ZW5jcnlwdGVkIG5hbWU', mimetype: 'text/plain' };
  expect(await fulfil(sender, id, answer)).toMatchObject({ status: 201, body: { fulfilled: true } });
  expect(await fulfil(sender, id, { data: 'YQ==' })).toMatchObject({ status: 409, body: { error: ERRORS.requestFulfilled } });
  expect(await fulfil(requester, id, { data: 'YQ==' })).toMatchObject({ status: 409 });
  expect(await get(sender, id)).toMatchObject({ status: 409, body: { error: ERRORS.requestFulfilled } });

  const fulfilled = await status(requester, id);
  expect(fulfilled).toMatchObject({ status: 200, body: { state: 'fulfilled', secret: id } });
  expect(fulfilled.body.fulfilledAt).toEqual(expect.any(Number));
  // The answer is kept for the request's ttl, counted from when it was given.
  expect(fulfilled.body.expires).toBeGreaterThanOrEqual((fulfilled.body.fulfilledAt as number) + 3_600_000);

  // The answer is a secret of the requester's key, with its receipt; a stranger's is the claim's 404.
  expect(await receipt(requester, id)).toMatchObject({ status: 200, body: { state: 'active', views: 1, remaining: 1, viewed: [] } });
  expect(await receipt(sender, id)).toMatchObject({ status: 404, body: { error: ERRORS.secretNotFound } });

  // The sender (or anyone holding the request link) cannot spend the requester's one view.
  expect(await claim(sender, id)).toMatchObject({ status: 404, body: { error: ERRORS.secretNotFound } });
  expect(await claim(requester, id)).toMatchObject({
    status: 200,
    body: { data: answer.data, type: 'file', filename: answer.filename, mimetype: 'text/plain', remaining: 0 },
  });
  expect((await claim(requester, id)).status).toBe(404);
  expect((await status(requester, id)).status).toBe(404);
  // Once the answer is gone, its receipt says it was used, and when.
  await eventually(
    async () => expect(await receipt(requester, id)).toMatchObject({ status: 200, body: { state: 'used', views: 1, remaining: 0 } }),
    20_000,
  );
  expect((await receipt(requester, id)).body.viewed).toHaveLength(1);
});

test('an expired request is 404 to the sender and to a fulfilment, and "expired" to its requester', async () => {
  const { id } = await createRequest(requester);
  await expireSecret(id);
  expect(await get(sender, id)).toMatchObject({ status: 404, body: { error: ERRORS.requestNotFound } });
  expect(await fulfil(sender, id, { data: 'YQ==' })).toMatchObject({ status: 404, body: { error: ERRORS.requestNotFound } });
  expect(await status(requester, id)).toMatchObject({ status: 200, body: { state: 'expired', secret: null } });
});

test('an answer left unread expires like any secret', async () => {
  const { id } = await createRequest(requester);
  expect((await fulfil(sender, id, { data: 'YQ==' })).status).toBe(201);
  await expireSecret(id);
  expect(await status(requester, id)).toMatchObject({ status: 200, body: { state: 'expired', secret: null } });
  expect((await claim(requester, id)).status).toBe(404);
});

test('unknown and malformed ids, and plain secrets, are 404 on every request route', async () => {
  const { id: secretId } = await api<{ id: string }>('POST', '/secrets', { key: requester, json: { data: 'YQ==' } }).then((r) => r.body);
  for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'not-an-id', secretId]) {
    expect((await get(sender, id)).status).toBe(404);
    expect((await fulfil(sender, id, { data: 'YQ==' })).status).toBe(404);
    expect((await status(requester, id)).status).toBe(404);
  }
  // The plain secret is untouched.
  expect((await claim(sender, secretId)).status).toBe(200);
});

test.each([
  ['a missing publicKey', {}, ERRORS.publicKey],
  ['a publicKey off the curve', { publicKey: `BA${'A'.repeat(85)}` }, ERRORS.publicKey],
  ['a padded publicKey', { publicKey: `${requestPublicKey()}=` }, ERRORS.publicKey],
  ['a compressed point', { publicKey: Buffer.alloc(33, 2).toString('base64url') }, ERRORS.publicKey],
  ['a note too long', { publicKey: requestPublicKey(), note: 'n'.repeat(REQUEST_NOTE_MAX_LENGTH + 1) }, ERRORS.note],
  ['a note with a control character', { publicKey: requestPublicKey(), note: 'a\u0000b' }, ERRORS.note],
  ['a bad ttl', { publicKey: requestPublicKey(), ttl: '2h' }, ERRORS.ttl],
  ['an unknown field', { publicKey: requestPublicKey(), views: 2 }, ERRORS.unknownField('views')],
])('POST /requests with %s is 400 naming the field', async (_, json, error) => {
  expect(await api('POST', '/requests', { key: requester, json })).toMatchObject({ status: 400, body: { error } });
});

test('a note of the largest size, with tabs and newlines, is kept as given', async () => {
  const note = `${'x'.repeat(REQUEST_NOTE_MAX_LENGTH - 2)}\t\n`;
  const { id } = await createRequest(requester, { note });
  expect((await get(sender, id)).body.note).toBe(note);
});

test.each([
  ['no data', {}, ERRORS.data],
  ['data that is not base64', { data: 'not base64!' }, ERRORS.data],
  ['views, which an answer does not take', { data: 'YQ==', views: 2 }, ERRORS.unknownField('views')],
  ['a ttl, which the request set', { data: 'YQ==', ttl: '1h' }, ERRORS.unknownField('ttl')],
  ['a filename on text', { data: 'YQ==', filename: 'x' }, ERRORS.fileFieldsNeedFileType('filename')],
])('a fulfilment with %s is 400 naming the field, and leaves the request open', async (_, json, error) => {
  const { id } = await createRequest(requester);
  expect(await fulfil(sender, id, json)).toMatchObject({ status: 400, body: { error } });
  expect((await status(requester, id)).body.state).toBe('open');
});

test.each([
  ['inline', 1_000],
  ['chunked', 1_000_000],
])('two %s fulfilments at once: exactly one wins, and its answer is the one read', async (_, bytes) => {
  const { id } = await createRequest(requester);
  const answers = [base64Of(bytes, 11), base64Of(bytes, 12)];
  const results = await Promise.all(answers.map((data) => fulfil(sender, id, { data })));
  expect(results.map((result) => result.status).sort()).toEqual([201, 409]);
  const winner = answers[results.findIndex((result) => result.status === 201)];
  const claimed = await claim(requester, id);
  expect(claimed.status).toBe(200);
  expect(claimed.body.data === winner).toBe(true);
});

test('the requester may revoke an unread answer, as any secret of theirs', async () => {
  const { id } = await createRequest(requester);
  expect((await fulfil(sender, id, { data: base64Of(1_000_000, 4) })).status).toBe(201);
  expect((await api('DELETE', `/secrets/${id}`, { key: sender })).status).toBe(404);
  expect((await api('DELETE', `/secrets/${id}`, { key: requester })).status).toBe(200);
  expect(await itemsOfSecret(id)).toEqual([]);
  expect((await claim(requester, id)).status).toBe(404);
});
