import { ERRORS } from '#contract/errors';
import { api, createKey, createSecret, type CreatedKey } from '../support/api';
import { testEnv } from '../support/environment';
import { closeStore, countSecretItemsOwnedBy, expireSecret, itemsOfSecret } from './support/store';
import { eventually } from '../support/eventually';

afterAll(closeStore);

let owner: CreatedKey;
beforeEach(async () => {
  owner = await createKey();
});

describe('POST /secrets', () => {
  test('stores the secret and answers 201 with its id and link', async () => {
    const response = await api('POST', '/secrets', { key: owner.key, json: { data: 'aGVsbG8gd29ybGQ=' } });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['id', 'url']);
    const id = response.body.id as string;
    // 128 bits or more of URL-safe characters.
    expect(id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    // SITE_URL's trailing slash is dropped.
    expect(response.body.url).toBe(`${testEnv('siteUrl').replace(/\/$/, '')}/${id}`);
  });

  test('defaults: one view, type text, no filename or mimetype', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGVsbG8=' });
    const claim = await api('GET', `/secrets/${id}`, { key: owner.key });
    expect(claim.status).toBe(200);
    expect(claim.body).toEqual({ data: 'aGVsbG8=', type: 'text', filename: null, mimetype: null, remaining: 0 });
    expect((await api('GET', `/secrets/${id}`, { key: owner.key })).status).toBe(404);
  });

  test('a file secret keeps its filename and mimetype', async () => {
    const { id } = await createSecret(owner.key, {
      data: 'JVBERi0xLjQK',
      type: 'file',
      filename: 'report 2026.pdf',
      mimetype: 'application/pdf',
      views: 2,
      ttl: '7d',
    });
    const claim = await api('GET', `/secrets/${id}`, { key: owner.key });
    expect(claim.body).toEqual({
      data: 'JVBERi0xLjQK',
      type: 'file',
      filename: 'report 2026.pdf',
      mimetype: 'application/pdf',
      remaining: 1,
    });
  });

  test('each ttl sets the expiry it names', async () => {
    const hours = { '1h': 1, '6h': 6, '12h': 12, '1d': 24, '7d': 168 };
    for (const [ttl, h] of Object.entries(hours)) {
      const before = Date.now();
      const { id } = await createSecret(owner.key, { data: 'aGk=', ttl });
      const [head] = await itemsOfSecret(id);
      expect(head?.expires).toBeGreaterThanOrEqual(before + h * 3_600_000);
      expect(head?.expires).toBeLessThanOrEqual(Date.now() + h * 3_600_000);
      // DynamoDB TTL (epoch seconds) removes it after the same moment.
      expect(head?.ttl).toBe(Math.ceil((head?.expires as number) / 1000));
    }
  });

  const invalidBodies: [string, unknown, string][] = [
    ['missing data', { views: 1 }, ERRORS.data],
    ['empty data', { data: '' }, ERRORS.data],
    ['data that is not base64', { data: 'hello world' }, ERRORS.data],
    ['base64url data', { data: 'ab-_' }, ERRORS.data],
    ['data with a bad length', { data: 'aGVsbG8' }, ERRORS.data],
    ['data as a number', { data: 1234 }, ERRORS.data],
    ['an unknown ttl', { data: 'aGk=', ttl: '2d' }, ERRORS.ttl],
    ['an unknown type', { data: 'aGk=', type: 'image' }, ERRORS.type],
    ['0 views', { data: 'aGk=', views: 0 }, ERRORS.views],
    ['6 views', { data: 'aGk=', views: 6 }, ERRORS.views],
    ['2.5 views', { data: 'aGk=', views: 2.5 }, ERRORS.views],
    ['views as a string', { data: 'aGk=', views: '2' }, ERRORS.views],
    ['a filename on a text secret', { data: 'aGk=', filename: 'a.txt' }, ERRORS.fileFieldsNeedFileType('filename')],
    ['a mimetype on a text secret', { data: 'aGk=', mimetype: 'text/plain' }, ERRORS.fileFieldsNeedFileType('mimetype')],
    ['an empty filename', { data: 'aGk=', type: 'file', filename: '' }, ERRORS.filename],
    ['a 256-character filename', { data: 'aGk=', type: 'file', filename: 'f'.repeat(256) }, ERRORS.filename],
    ['a mimetype without subtype', { data: 'aGk=', type: 'file', mimetype: 'text' }, ERRORS.mimetype],
    ['a typo for views', { data: 'aGk=', view: 2 }, ERRORS.unknownField('view')],
  ];

  test.each(invalidBodies)('%s gets 400 naming the problem, and stores nothing', async (_, json, message) => {
    await createSecret(owner.key, { data: 'aGk=' });
    const before = await countSecretItemsOwnedBy(owner.key);
    expect(before).toBe(1);
    const response = await api('POST', '/secrets', { key: owner.key, json });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
    expect(await countSecretItemsOwnedBy(owner.key)).toBe(before);
  });

  test('without a body gets 400', async () => {
    const response = await api('POST', '/secrets', { key: owner.key });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: ERRORS.bodyRequired });
  });
});

describe('GET /secrets/:id', () => {
  test('each claim consumes one view; remaining counts down; then 404', async () => {
    const { id } = await createSecret(owner.key, { data: 'dGhyZWU=', views: 3 });
    const claimer = await createKey();
    const remaining: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const claim = await api('GET', `/secrets/${id}`, { key: claimer.key });
      expect(claim.status).toBe(200);
      expect(claim.body.data).toBe('dGhyZWU=');
      remaining.push(claim.body.remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const gone = await api('GET', `/secrets/${id}`, { key: claimer.key });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: ERRORS.secretNotFound });
    // The last view deleted the data itself, not just the right to read it.
    // The stream consumer deletes what the last view consumed.
    await eventually(async () => expect(await itemsOfSecret(id)).toEqual([]));
  });

  test('unknown, malformed and claimed-out ids get the same 404', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=' });
    await api('GET', `/secrets/${id}`, { key: owner.key });
    const answers = await Promise.all(
      [id, 'AAAAAAAAAAAAAAAAAAAAAA', 'short', '..%2F..%2Fkeys', 'x'.repeat(300)].map((candidate) =>
        api('GET', `/secrets/${candidate}`, { key: owner.key }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.raw).toBe(JSON.stringify({ error: ERRORS.secretNotFound }));
    }
  });

  test('after the ttl the secret is gone (404) even before DynamoDB TTL removes it', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=', views: 2 });
    await expireSecret(id);
    expect((await itemsOfSecret(id)).length).toBe(1);
    expect((await api('GET', `/secrets/${id}`, { key: owner.key })).status).toBe(404);
    expect((await api('DELETE', `/secrets/${id}`, { key: owner.key })).status).toBe(404);
  });
});

describe('DELETE /secrets/:id', () => {
  test('the owner revokes: 200 {deleted: true}, then GET and DELETE answer 404', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=', views: 5 });
    const response = await api('DELETE', `/secrets/${id}`, { key: owner.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deleted: true });
    expect((await api('GET', `/secrets/${id}`, { key: owner.key })).status).toBe(404);
    expect((await api('DELETE', `/secrets/${id}`, { key: owner.key })).status).toBe(404);
    expect(await itemsOfSecret(id)).toEqual([]);
  });

  test('another key gets the same 404 as for an unknown id, and the secret is untouched', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=', views: 2 });
    const stranger = await createKey();
    const refused = await api('DELETE', `/secrets/${id}`, { key: stranger.key });
    const unknown = await api('DELETE', '/secrets/AAAAAAAAAAAAAAAAAAAAAA', { key: stranger.key });
    expect(refused.status).toBe(404);
    expect(refused.raw).toBe(unknown.raw);
    const claim = await api('GET', `/secrets/${id}`, { key: stranger.key });
    expect(claim.body.remaining).toBe(1);
  });
});
