import { createHash, randomBytes } from 'node:crypto';
import { ERRORS } from '#contract/errors';
import { ENV } from '#lambdas/definitions/env';
import { GATE, RECEIPT_LIFETIME_MS } from '#contract/limits';
import { SECRETS_TABLE } from '#lambdas/definitions/tables';
import { hashApiKey } from '#lambdas/rules/api-keys';
import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import type { Receipt } from '#lambdas/rules/receipt';
import { api, createKey, createSecret, type CreatedKey } from '../support/api';
import { testEnv } from '../support/environment';
import { eventually } from '../support/eventually';
import { closeStore, expireSecret, headGoneReceiptKept, itemsOfSecret } from './support/store';

/**
 * Receipts (GET /secrets/{id}/status) against local mode: every state, read off the head while it
 * lives and off the receipt item the stream consumer keeps once it is gone; the stranger's 404;
 * claims and revocations of a receipt-only id answering as before. The 7-day lifetime is checked
 * with the use-case's clock (`now`) set past it, against the same DynamoDB Local, not by waiting.
 */

afterAll(closeStore);

let owner: CreatedKey;
let stranger: CreatedKey;
beforeAll(async () => {
  [owner, stranger] = await Promise.all([createKey(), createKey()]);
});

const status = (id: string, key = owner.key) => api<Receipt & { error?: string }>('GET', `/secrets/${id}/status`, { key });
const claim = (id: string, headers: Record<string, string> = {}) => api('GET', `/secrets/${id}`, { key: owner.key, headers });
const NOT_FOUND = { error: ERRORS.secretNotFound };

describe('GET /secrets/{id}/status', () => {
  test('active: the facts of a live secret, using no view', async () => {
    const before = Date.now();
    const { id } = await createSecret(owner.key, { data: 'aGk=', views: 2, ttl: '1h' });
    const first = await status(id);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['created', 'expires', 'remaining', 'state', 'viewed', 'views']);
    expect(first.body).toMatchObject({ state: 'active', views: 2, remaining: 2, viewed: [] });
    expect(first.body.created).toBeGreaterThanOrEqual(before);
    expect(first.body.expires).toBe(first.body.created + 3_600_000);
    // Asking twice took nothing: both views are still there to claim.
    expect((await status(id)).body.remaining).toBe(2);
    const viewedFrom = Date.now();
    expect((await claim(id)).body.remaining).toBe(1);
    const afterOne = await status(id);
    expect(afterOne.body).toMatchObject({ state: 'active', remaining: 1 });
    expect(afterOne.body.viewed).toHaveLength(1);
    expect(afterOne.body.viewed[0]).toBeGreaterThanOrEqual(viewedFrom);
    expect(afterOne.body.viewed[0]).toBeLessThanOrEqual(Date.now());
  });

  test('used: the last view, then kept with every view time after the data is deleted', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=', views: 2 });
    await claim(id);
    await claim(id);
    const atOnce = await status(id);
    expect(atOnce.body).toMatchObject({ state: 'used', views: 2, remaining: 0 });
    expect(atOnce.body.viewed).toHaveLength(2);
    const item = await headGoneReceiptKept(id);
    // No data, filename or mimetype outlives the secret.
    expect(Object.keys(item).sort()).toEqual(['created', 'expires', 'owner', 'pk', 'remaining', 'sk', 'state', 'ttl', 'views', 'viewed'].sort());
    expect(item.ttl).toBe(Math.ceil((atOnce.body.expires + RECEIPT_LIFETIME_MS) / 1000));
    expect((await status(id)).body).toEqual(atOnce.body);
  });

  test('used, a file secret: the receipt holds neither its filename nor its mimetype', async () => {
    const { id } = await createSecret(owner.key, { data: 'JVBERi0xLjQK', type: 'file', filename: 'plan.pdf', mimetype: 'application/pdf' });
    await claim(id);
    const item = await headGoneReceiptKept(id);
    expect(item).not.toHaveProperty('filename');
    expect(item).not.toHaveProperty('mimetype');
    expect(item).not.toHaveProperty('data');
    expect((await status(id)).body).toMatchObject({ state: 'used', views: 1, remaining: 0 });
  });

  test('revoked: the revocation deletes the data at once, the receipt stays', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=', views: 3 });
    await claim(id);
    expect((await api('DELETE', `/secrets/${id}`, { key: owner.key })).status).toBe(200);
    expect(await itemsOfSecret(id)).toEqual([]);
    await headGoneReceiptKept(id);
    const receipt = await status(id);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ state: 'revoked', views: 3, remaining: 2 });
    expect(receipt.body.viewed).toHaveLength(1);
  });

  test('revoked, read right after the revocation answered: never 404', async () => {
    for (let i = 0; i < 5; i++) {
      const { id } = await createSecret(owner.key, { data: 'aGk=', views: 2 });
      expect((await api('DELETE', `/secrets/${id}`, { key: owner.key })).status).toBe(200);
      const receipt = await status(id);
      expect(receipt.status).toBe(200);
      expect(receipt.body).toMatchObject({ state: 'revoked', views: 2, remaining: 2, viewed: [] });
    }
  });

  test('burned: the last wrong passphrase', async () => {
    const proof = randomBytes(32);
    const gate = createHash('sha256').update(proof).digest('base64url');
    const { id } = await createSecret(owner.key, { data: 'aGk=', gate });
    const wrong = randomBytes(32).toString('base64url');
    for (let attempt = 0; attempt < GATE.attempts; attempt++) expect((await claim(id, { [GATE.proofHeader]: wrong })).status).toBe(403);
    // Off the head, or off the receipt once the consumer has deleted it; for the moment between
    // the two, 404 (docs/decisions/receipts.md, Limits).
    await eventually(async () => expect((await status(id)).body).toMatchObject({ state: 'burned', remaining: 0, viewed: [] }), 20_000);
    await headGoneReceiptKept(id);
    expect((await status(id)).body).toMatchObject({ state: 'burned', views: 1, remaining: 0, viewed: [] });
  });

  test('expired: a secret whose ttl passed with views left (DynamoDB TTL may not have removed it yet)', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=', views: 2 });
    await claim(id);
    await expireSecret(id);
    expect((await claim(id)).status).toBe(404);
    expect((await status(id)).body).toMatchObject({ state: 'expired', views: 2, remaining: 1 });
  });

  test("a stranger's key, an unknown id and a malformed one get exactly the claim's 404", async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=' });
    const unknownClaim = await api('GET', `/secrets/${'A'.repeat(22)}`, { key: stranger.key });
    expect(unknownClaim.status).toBe(404);
    for (const response of [await status(id, stranger.key), await status('A'.repeat(22)), await status('not-an-id')]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual(unknownClaim.body);
      expect(response.body).toEqual(NOT_FOUND);
    }
    // Once only the receipt is left, the same.
    await claim(id);
    await headGoneReceiptKept(id);
    expect((await status(id)).status).toBe(200);
    const foreign = await status(id, stranger.key);
    expect([foreign.status, foreign.body]).toEqual([404, NOT_FOUND]);
  });

  test('claims and revocations of a receipt-only id answer as for any gone secret', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=' });
    await claim(id);
    await headGoneReceiptKept(id);
    for (const response of [
      await claim(id),
      await api('GET', `/secrets/${id}`, { key: stranger.key }),
      await api('DELETE', `/secrets/${id}`, { key: owner.key }),
      await api('DELETE', `/secrets/${id}`, { key: stranger.key }),
    ]) {
      expect([response.status, response.body]).toEqual([404, NOT_FOUND]);
    }
    // ... and leave the receipt as it was.
    expect((await status(id)).body).toMatchObject({ state: 'used', remaining: 0 });
  });
});

describe('the 7-day lifetime, on an injected clock', () => {
  /** The status use-case, run here against the server's DynamoDB Local with `now` of the test's choosing. */
  let secretStatus: (id: string, owner: string, now: number) => Promise<Receipt | undefined>;
  beforeAll(async () => {
    process.env[ENV.dynamodbEndpoint] = testEnv('dynamodbEndpoint');
    process.env[SECRETS_TABLE.envVar] = testEnv('secretsTable');
    // As local mode sets them for its functions.
    process.env.AWS_REGION ??= LOCAL_AWS_SETTINGS.region;
    process.env.AWS_ACCESS_KEY_ID ??= LOCAL_AWS_SETTINGS.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY ??= LOCAL_AWS_SETTINGS.credentials.secretAccessKey;
    ({ secretStatus } = await import('#lambdas/use-cases/receipts'));
  });
  afterAll(async () => {
    (await import('#lambdas/store/dynamo')).dynamo.destroy();
  });

  test('a receipt item answers until 7 days after expires, then 404', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=', ttl: '1h' });
    expect((await api('DELETE', `/secrets/${id}`, { key: owner.key })).status).toBe(200);
    await headGoneReceiptKept(id);
    const { expires } = (await status(id)).body;
    const lastMoment = expires + RECEIPT_LIFETIME_MS - 1;
    expect(await secretStatus(id, hashApiKey(owner.key), lastMoment)).toMatchObject({ state: 'revoked', expires });
    expect(await secretStatus(id, hashApiKey(owner.key), lastMoment + 1)).toBeUndefined();
    expect(await secretStatus(id, hashApiKey(stranger.key), lastMoment)).toBeUndefined();
  });

  test('an expired head that TTL has not removed answers `expired` for 7 days, then 404', async () => {
    const { id } = await createSecret(owner.key, { data: 'aGk=', ttl: '1h' });
    const { expires } = (await status(id)).body;
    expect(await secretStatus(id, hashApiKey(owner.key), expires - 1)).toMatchObject({ state: 'active' });
    expect(await secretStatus(id, hashApiKey(owner.key), expires)).toMatchObject({ state: 'expired', remaining: 1 });
    expect(await secretStatus(id, hashApiKey(owner.key), expires + RECEIPT_LIFETIME_MS - 1)).toMatchObject({ state: 'expired' });
    expect(await secretStatus(id, hashApiKey(owner.key), expires + RECEIPT_LIFETIME_MS)).toBeUndefined();
  });
});
