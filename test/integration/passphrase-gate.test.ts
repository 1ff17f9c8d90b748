import { createHash, randomBytes } from 'node:crypto';
import { SETTINGS } from '#lambdas/config/settings';
import { ERRORS } from '#contract/errors';
import { GATE, IDEMPOTENCY } from '#contract/limits';
import { WEBHOOK_HEADERS } from '#lambdas/definitions/webhooks';
import { verifyWebhook } from '#client/webhook';
import { api, base64Of, createKey, createSecret, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { serverWithReceiverForThisFile } from './support/server-with-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { closeStore, itemsOfSecret } from './support/store';

/**
 * The passphrase gate against local mode (docs/api.md): proofs checked by the claim's own update,
 * wrong ones counted atomically, the last one burning the secret and sending `secret.burned` to a
 * real receiver. Proofs here are random 32 bytes and gates their SHA-256, as a client makes them;
 * the derivation from a passphrase is the clients' (test/unit/client/passphrase.test.ts).
 */

const SECRETS = 'it-gate-secrets';
const DELIVERY_WAIT_MS = 15_000;

let receiver: WebhookReceiver;
let baseUrl: string;

serverWithReceiverForThisFile(
  { keysTable: 'it-gate-keys', secretsTable: SECRETS, env: { [SETTINGS.webhookRetryBaseMs.env]: '1000' } },
  (started) => ({ receiver, baseUrl } = started),
);
afterAll(() => closeStore());

interface Gate {
  proof: string;
  gate: string;
}

function newGate(): Gate {
  const proof = randomBytes(32);
  return { proof: proof.toString('base64url'), gate: createHash('sha256').update(proof).digest('base64url') };
}

const wrongProof = (): string => randomBytes(32).toString('base64url');

let owner: { key: string; webhookSecret: string; path: string };
let paths = 0;
beforeEach(async () => {
  const path = `/gate-${++paths}`;
  owner = { ...(await createKey({ webhook: receiver.url(path) }, baseUrl)), path };
});

const claim = (id: string, proof?: string): Promise<ApiResponse> =>
  api('GET', `/secrets/${id}`, { key: owner.key, baseUrl, ...(proof === undefined ? {} : { headers: { [GATE.proofHeader]: proof } }) });

async function gatedSecret(gate: Gate, fields: Record<string, unknown> = {}): Promise<string> {
  return (await createSecret(owner.key, { data: 'c2VjcmV0', gate: gate.gate, ...fields }, baseUrl)).id;
}

/** What a refused claim showed: its status, error and attempts left. */
const refusal = (response: ApiResponse) => ({
  status: response.status,
  error: response.body.error,
  attemptsLeft: response.headers[GATE.attemptsLeftHeader],
});

describe('POST /secrets with a gate', () => {
  test.each([
    ['42 characters', 'A'.repeat(42)],
    ['44 characters', 'A'.repeat(44)],
    ['padding', `${'A'.repeat(42)}=`],
    ['standard base64 characters', `${'+'.repeat(42)}A`],
    ['a last character with bits beyond 32 bytes', `${'A'.repeat(42)}B`],
    ['a number', 42],
    ['null', null],
  ])('%s: 400 naming gate, nothing stored', async (_, gate) => {
    const response = await api('POST', '/secrets', { key: owner.key, baseUrl, json: { data: 'c2VjcmV0', gate } });
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { error: ERRORS.gate } });
  });

  test('stores the gate and 5 attempts, nothing else about the passphrase', async () => {
    const gate = newGate();
    const id = await gatedSecret(gate);
    const [head] = await itemsOfSecret(id, SECRETS);
    expect(head).toMatchObject({ gate: gate.gate, attempts: GATE.attempts });
    expect(JSON.stringify(head)).not.toContain(gate.proof);
  });
});

describe('claiming a gated secret', () => {
  test('without the proof: 403 "passphrase required", 5 attempts left, no view used, nothing counted', async () => {
    const gate = newGate();
    const id = await gatedSecret(gate, { views: 2 });
    for (let i = 0; i < 3; i++) {
      expect(refusal(await claim(id))).toEqual({ status: 403, error: ERRORS.passphraseRequired, attemptsLeft: '5' });
    }
    const right = await claim(id, gate.proof);
    expect({ status: right.status, data: right.body.data, remaining: right.body.remaining }).toEqual({ status: 200, data: 'c2VjcmV0', remaining: 1 });
  });

  test('wrong proofs count down; the right one still works while attempts remain, and uses one view', async () => {
    const gate = newGate();
    const id = await gatedSecret(gate, { views: 2 });
    expect(refusal(await claim(id, wrongProof()))).toEqual({ status: 403, error: ERRORS.wrongPassphrase, attemptsLeft: '4' });
    expect(refusal(await claim(id, wrongProof()))).toEqual({ status: 403, error: ERRORS.wrongPassphrase, attemptsLeft: '3' });
    expect(refusal(await claim(id))).toEqual({ status: 403, error: ERRORS.passphraseRequired, attemptsLeft: '3' });
    // Not a proof at all: as wrong as any other.
    expect(refusal(await claim(id, 'not a proof'))).toEqual({ status: 403, error: ERRORS.wrongPassphrase, attemptsLeft: '2' });
    expect((await claim(id, gate.proof)).body).toMatchObject({ data: 'c2VjcmV0', remaining: 1 });
    expect(refusal(await claim(id, wrongProof()))).toEqual({ status: 403, error: ERRORS.wrongPassphrase, attemptsLeft: '1' });
    expect((await claim(id, gate.proof)).body).toMatchObject({ data: 'c2VjcmV0', remaining: 0 });
    expect((await claim(id, gate.proof)).status).toBe(404);
  });

  test('the 5th wrong proof deletes the secret: the right one then gets 404, and the owner gets secret.burned', async () => {
    const gate = newGate();
    const id = await gatedSecret(gate, { views: 3 });
    const left: string[] = [];
    for (let i = 0; i < GATE.attempts; i++) left.push(refusal(await claim(id, wrongProof())).attemptsLeft ?? '');
    expect(left).toEqual(['4', '3', '2', '1', '0']);
    expect((await claim(id, gate.proof)).status).toBe(404);
    expect((await claim(id)).status).toBe(404);
    expect((await api('DELETE', `/secrets/${id}`, { key: owner.key, baseUrl })).status).toBe(404);

    const events = await receiver.waitFor(owner.path, 2, DELIVERY_WAIT_MS);
    const payloads = events.map((event) => JSON.parse(event.rawBody.toString('utf8')) as { event: string; timestamp: number; data: unknown });
    expect(payloads.map((payload) => payload.event).sort()).toEqual(['secret.burned', 'secret.created']);
    const burned = payloads.find((payload) => payload.event === 'secret.burned');
    expect(burned).toEqual({ event: 'secret.burned', timestamp: expect.any(Number), data: { id } });
    for (const event of events) {
      expect(await verifyWebhook(event.rawBody, String(event.headers[WEBHOOK_HEADERS.signature]), owner.webhookSecret)).toBe(true);
    }
    await eventually(async () => expect(await itemsOfSecret(id, SECRETS)).toEqual([]), DELIVERY_WAIT_MS);
  });

  test('8 wrong proofs at once: exactly 5 counted (4, 3, 2, 1, 0 left), 3 find it gone, one secret.burned', async () => {
    const gate = newGate();
    const id = await gatedSecret(gate);
    const responses = await Promise.all(Array.from({ length: 8 }, () => claim(id, wrongProof())));
    const refused = responses.filter((response) => response.status === 403).map(refusal);
    expect(refused.map((shown) => shown.attemptsLeft).sort()).toEqual(['0', '1', '2', '3', '4']);
    expect(refused.every((shown) => shown.error === ERRORS.wrongPassphrase)).toBe(true);
    expect(responses.filter((response) => response.status === 404)).toHaveLength(3);
    expect((await claim(id, gate.proof)).status).toBe(404);

    await receiver.waitFor(owner.path, 2, DELIVERY_WAIT_MS);
    // A later event of the same key arrives after any second burn would have.
    await createSecret(owner.key, { data: 'bGF0ZXI=' }, baseUrl);
    await receiver.waitFor(owner.path, 3, DELIVERY_WAIT_MS);
    const events = receiver.received(owner.path).map((event) => (JSON.parse(event.rawBody.toString('utf8')) as { event: string }).event);
    expect(events.filter((event) => event === 'secret.burned')).toHaveLength(1);
  });

  test('a chunked secret: the right proof reads it; burned, its chunks are deleted too', async () => {
    const gate = newGate();
    const data = base64Of(1_000_000);
    const id = await gatedSecret(gate, { data, views: 2 });
    const right = await claim(id, gate.proof);
    expect(right.status).toBe(200);
    expect(right.body.data === data).toBe(true);
    for (let i = 0; i < GATE.attempts; i++) await claim(id, wrongProof());
    expect((await claim(id, gate.proof)).status).toBe(404);
    await eventually(async () => expect(await itemsOfSecret(id, SECRETS)).toEqual([]), DELIVERY_WAIT_MS);
  });

  test('a chunked secret nobody read yet is deleted when burned', async () => {
    const id = await gatedSecret(newGate(), { data: base64Of(1_000_000) });
    for (let i = 0; i < GATE.attempts; i++) await claim(id, wrongProof());
    await eventually(async () => expect(await itemsOfSecret(id, SECRETS)).toEqual([]), DELIVERY_WAIT_MS);
  });
});

describe('a gated claim with an Idempotency-Key', () => {
  const keyedClaim = (id: string, proof: string, idempotencyKey: string): Promise<ApiResponse> =>
    api('GET', `/secrets/${id}`, { key: owner.key, baseUrl, headers: { [GATE.proofHeader]: proof, [IDEMPOTENCY.header]: idempotencyKey } });

  test('with the right proof, repeated: the same data and remaining, one view used', async () => {
    const gate = newGate();
    const id = await gatedSecret(gate, { views: 2 });
    const idempotencyKey = randomBytes(16).toString('base64url');
    const first = await keyedClaim(id, gate.proof, idempotencyKey);
    const repeat = await keyedClaim(id, gate.proof, idempotencyKey);
    expect(first.body).toMatchObject({ data: 'c2VjcmV0', remaining: 1 });
    expect({ status: repeat.status, raw: repeat.raw }).toEqual({ status: 200, raw: first.raw });
    const [head] = await itemsOfSecret(id, SECRETS);
    expect(head).toMatchObject({ remaining: 1, attempts: GATE.attempts });
  });

  test('with a wrong proof, repeated: the same 403 and attempts left, one attempt counted', async () => {
    const gate = newGate();
    const id = await gatedSecret(gate, { views: 2 });
    const idempotencyKey = randomBytes(16).toString('base64url');
    const proof = wrongProof();
    const first = refusal(await keyedClaim(id, proof, idempotencyKey));
    expect(first).toEqual({ status: 403, error: ERRORS.wrongPassphrase, attemptsLeft: '4' });
    expect(refusal(await keyedClaim(id, proof, idempotencyKey))).toEqual(first);
    const [head] = await itemsOfSecret(id, SECRETS);
    expect(head).toMatchObject({ remaining: 2, attempts: GATE.attempts - 1 });
  });
});

test('a secret without a gate ignores x-secret-proof, well-formed or not', async () => {
  const { id } = await createSecret(owner.key, { data: 'b3Blbg==', views: 2 }, baseUrl);
  expect((await claim(id, wrongProof())).body).toMatchObject({ data: 'b3Blbg==', remaining: 1 });
  const second = await claim(id, 'garbage');
  expect({ status: second.status, remaining: second.body.remaining, attemptsLeft: second.headers[GATE.attemptsLeftHeader] }).toEqual({
    status: 200,
    remaining: 0,
    attemptsLeft: undefined,
  });
});
