import { ERRORS } from '#contract/errors';
import { DATA_CHUNK_BYTES, INLINE_DATA_MAX_BYTES, MAX_BODY_BYTES } from '#contract/limits';
import { api, base64Of, createKey, createRequest, createSecret, dataFilling } from '../support/api';
import { closeStore, itemsOfSecret } from './support/store';
import { eventually } from '../support/eventually';

/** Contract rows "concurrency" and "large payloads", on the real DynamoDB engine. */

afterAll(closeStore);

/** About what DynamoDB counts of an item: its attribute names and values, binary as bytes. */
const storedBytes = (item: Record<string, unknown> = {}): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + name.length + (value instanceof Uint8Array ? value.byteLength : String(value).length), 0);

describe('concurrent claims', () => {
  test('20 simultaneous claims of a 1-view secret: exactly one 200, the rest 404', async () => {
    const { key } = await createKey();
    const { id } = await createSecret(key, { data: 'b25jZQ==' });
    const claimers = await Promise.all(Array.from({ length: 4 }, () => createKey()));
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => api('GET', `/secrets/${id}`, { key: claimers[i % 4]?.key })));
    const served = claims.filter((c) => c.status === 200);
    expect(served).toHaveLength(1);
    expect(served[0]?.body).toMatchObject({ data: 'b25jZQ==', remaining: 0 });
    expect(claims.filter((c) => c.status === 404)).toHaveLength(19);
  });

  test('30 simultaneous claims of a 5-view secret: exactly five, remaining 4..0', async () => {
    const { key } = await createKey();
    const { id } = await createSecret(key, { data: 'Zml2ZQ==', views: 5 });
    const claimers = await Promise.all(Array.from({ length: 3 }, () => createKey()));
    const claims = await Promise.all(Array.from({ length: 30 }, (_, i) => api('GET', `/secrets/${id}`, { key: claimers[i % 3]?.key })));
    const served = claims.filter((c) => c.status === 200);
    expect(served.map((c) => c.body.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(claims.filter((c) => c.status === 404)).toHaveLength(25);
    await eventually(async () => expect(await itemsOfSecret(id)).toEqual([]));
  });
});

describe('large payloads', () => {
  test('a body of exactly 5 MiB round-trips byte for byte, then leaves nothing behind', async () => {
    const { key } = await createKey();
    const data = dataFilling(MAX_BODY_BYTES);
    const body = JSON.stringify({ data });
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_BODY_BYTES - 4);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);

    const created = await api('POST', '/secrets', { key, rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // Stored as a head plus chunks, each within DynamoDB's 400 KB item limit and under a
    // partition key of its own (one partition serves 1,000 write units a second on AWS).
    const items = await itemsOfSecret(id);
    expect(items.length).toBe(1 + Math.ceil(data.length / DATA_CHUNK_BYTES));
    expect(new Set(items.map((item) => item.pk)).size).toBe(items.length);

    const claim = await api('GET', `/secrets/${id}`, { key });
    expect(claim.status).toBe(200);
    expect(claim.body.data === data).toBe(true);
    // The stream consumer deletes what the last view consumed.
    await eventually(async () => expect(await itemsOfSecret(id)).toEqual([]));
  });

  test('one byte over 5 MiB gets 413 and stores nothing', async () => {
    const { key } = await createKey();
    const body = JSON.stringify({ data: dataFilling(MAX_BODY_BYTES) });
    const padded = body + ' '.repeat(MAX_BODY_BYTES + 1 - Buffer.byteLength(body));
    expect(Buffer.byteLength(padded)).toBe(MAX_BODY_BYTES + 1);
    const response = await api('POST', '/secrets', { key, rawBody: padded, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: ERRORS.payloadTooLarge });
    expect(response.headers['x-ratelimit-limit']).toBe('100');
  });

  test('a 1 MB secret with 2 views is served whole twice, and its chunks go with the last view', async () => {
    const { key } = await createKey();
    const data = base64Of(1_000_000, 3);
    const { id } = await createSecret(key, { data, views: 2, type: 'file', filename: 'big.bin', mimetype: 'application/octet-stream' });
    for (const remaining of [1, 0]) {
      const claim = await api('GET', `/secrets/${id}`, { key });
      expect(claim.body.remaining).toBe(remaining);
      expect(claim.body.data === data).toBe(true);
      expect(claim.body.filename).toBe('big.bin');
    }
    // The stream consumer deletes what the last view consumed.
    await eventually(async () => expect(await itemsOfSecret(id)).toEqual([]));
  });

  test('data just at the inline size stays in the head, 4 characters more go to a chunk; both are served', async () => {
    const { key } = await createKey();
    for (const [length, chunks] of [
      [INLINE_DATA_MAX_BYTES, 0],
      [INLINE_DATA_MAX_BYTES + 4, 1],
      [DATA_CHUNK_BYTES + 4, 2],
    ] as const) {
      const data = base64Of((length / 4) * 3, length);
      expect(data.length).toBe(length);
      const { id } = await createSecret(key, { data });
      const [head, ...chunkItems] = await itemsOfSecret(id);
      expect(chunkItems).toHaveLength(chunks);
      expect(head?.data !== undefined).toBe(chunks === 0);
      expect((await api('GET', `/secrets/${id}`, { key })).body.data === data).toBe(true);
    }
  });

  // A refused write (another key's revoke, an answer to a plain secret's id) is evaluated on the
  // head: a small head makes its time and its cost the same whatever the secret's size.
  test('a 340 KB secret and a request answered with 340 KB keep a small head, their data in chunk items', async () => {
    const { key } = await createKey();
    const data = base64Of(255_000, 13);
    const { id } = await createSecret(key, { data });
    const request = await createRequest(key);
    expect((await api('POST', `/requests/${request.id}`, { key, json: { data } })).status).toBe(201);
    const [secretHead, ...secretChunks] = await itemsOfSecret(id);
    const [requestHead] = await itemsOfSecret(request.id);
    for (const head of [secretHead, requestHead]) expect(storedBytes(head)).toBeLessThan(1_000);
    expect(secretChunks).toHaveLength(1);
    expect(await itemsOfSecret(String(requestHead?.chunkId))).toHaveLength(1);
    expect((await api('GET', `/secrets/${id}`, { key })).body.data === data).toBe(true);
    expect((await api('GET', `/secrets/${request.id}`, { key })).body.data === data).toBe(true);
  });

  test('data is stored as bytes where its base64 allows, and every form of base64 comes back as given', async () => {
    const { key } = await createKey();
    // 'QR==' and 'QUJ=' decode to the bytes of 'QQ==' and 'QUI=': stored as bytes, they would come back changed.
    for (const [data, asBytes] of [
      ['QQ==', true],
      ['QR==', false],
      ['QUI=', true],
      ['QUJ=', false],
    ] as const) {
      const { id } = await createSecret(key, { data });
      const [head] = await itemsOfSecret(id);
      expect(head?.data instanceof Uint8Array).toBe(asBytes);
      expect((await api('GET', `/secrets/${id}`, { key })).body.data).toBe(data);
    }
  });

  test('revoking a large secret deletes its chunks too', async () => {
    const { key } = await createKey();
    const { id } = await createSecret(key, { data: base64Of(900_000, 5), views: 3 });
    expect((await itemsOfSecret(id)).length).toBeGreaterThan(1);
    expect((await api('DELETE', `/secrets/${id}`, { key })).status).toBe(200);
    expect(await itemsOfSecret(id)).toEqual([]);
  });
});

describe('concurrent claims of a large secret', () => {
  test('20 simultaneous claims of a 3-view 1 MB secret: exactly three whole copies, then nothing stored', async () => {
    const { key } = await createKey();
    const data = base64Of(1_000_000, 9);
    const { id } = await createSecret(key, { data, views: 3 });
    const claimers = await Promise.all(Array.from({ length: 2 }, () => createKey()));
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => api('GET', `/secrets/${id}`, { key: claimers[i % 2]?.key })));
    const served = claims.filter((c) => c.status === 200);
    expect(served.map((c) => c.body.remaining).sort()).toEqual([0, 1, 2]);
    expect(served.every((c) => c.body.data === data)).toBe(true);
    // The stream consumer deletes what the last view consumed.
    await eventually(async () => expect(await itemsOfSecret(id)).toEqual([]));
  });
});
