import { SETTINGS } from '#lambdas/config/settings';
import { ERRORS } from '#contract/errors';
import { GATE } from '#contract/limits';
import { gateOfProof } from '#lambdas/rules/gate';
import { SECRET_HEAD_SK, SECRET_RECEIPT_SK } from '#lambdas/definitions/tables';
import { NEVER, renderCondition } from '#lambdas/store/condition';
import { api, base64Of, createKey, freshClientAddress, requestPublicKey, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import type { LocalServer } from '../support/local-server';
import { distinctEvents, type WebhookReceiver } from '../support/webhook-receiver';
import type { DynamoDbCall, FaultKind, FaultProxy } from './support/fault-proxy';
import { serverBehindFaultProxyForThisFile } from './support/server-with-receiver';
import { freshIdempotencyHeaders } from '../support/idempotency-key';
import { closeStore, itemsOfSecret } from './support/store';

/**
 * One long-running local-mode process, its DynamoDB behind a fault proxy, through what used to
 * drain the SDK's retry quota and then lose answers (docs/retried-writes.md):
 * 1. every write of every request (the stream consumer's included) losing all its SDK attempts'
 *    answers (500, reset, no answer at all), in two rounds of every story, so that each is settled
 *    by its read (which spends the SDK's quota: the later writes are settled with no SDK retry at
 *    all), each faulted request followed by a fault-free one of a bystander key: every request
 *    answers as without faults, every secret ends exactly right, and its owner gets exactly its
 *    story's events (one per event id);
 * 2. a slow DynamoDB (every answer 1.5 s late, then 3 s): no view is taken without its claim
 *    answering the data, GET /health says unhealthy, and what was refused is still there after;
 * 3. DynamoDB unreachable: 503 with retry-after at once, and everything back once it is.
 */

const KEYS = 'sf-keys';
const SECRETS = 'sf-secrets';
const DELIVERY_WAIT_MS = 20_000;
/** After a sentinel event has arrived, how long an event queued before it may still be on its way. */
const SETTLE_MS = 500;
/** Data of 400,000 base64 characters: two chunk items. */
const CHUNKED_BYTES = 300_000;
/**
 * The fault phase's rounds: every story with answers lost (500, reset), then some with the first
 * answer never coming at all (each such call waits out the SDK's 2 s request timeout).
 */
const SILENT_ROUND_STORIES = [
  'an inline secret, its only view',
  'a chunked secret, two views',
  'a gated secret: no proof, a wrong proof, then the right one',
  'a create and a claim with an Idempotency-Key, each repeated',
];
/** The floor: lost answers given in the fault phase. */
const MIN_FAULTS = 200;

let proxy: FaultProxy;
let server: LocalServer | undefined;
let receiver: WebhookReceiver;
let baseUrl: string;

// Deliveries that meet a fault are retried within the wait: 0.1, 1.2 and 14.4 s.
serverBehindFaultProxyForThisFile(
  { keysTable: KEYS, secretsTable: SECRETS, env: { [SETTINGS.webhookRetryBaseMs.env]: '100' } },
  (started) => ({ proxy, server, receiver, baseUrl } = started),
);

// After the server has stopped (the hooks above run first); its output is kept.
afterAll(() => {
  // What the routes logged of their 5xx answers, to tell a fault's 503 from a bug.
  const failures =
    server
      ?.output()
      .split('\n')
      .filter((line) => /"status":5\d\d/.test(line)) ?? [];
  if (failures.length > 0) console.log(`5xx answers:\n${failures.slice(0, 20).join('\n')}`);
  closeStore();
});

const stringOf = (value: unknown): string | undefined => (value as { S?: string } | undefined)?.S;

/** Which of the service's writes a call is; undefined for reads and local mode's own calls. */
function writeOf(call: DynamoDbCall): string | undefined {
  const { operation, body } = call;
  const table = typeof body.TableName === 'string' ? body.TableName : Object.keys((body.RequestItems as object | undefined) ?? {})[0];
  const update = typeof body.UpdateExpression === 'string' ? body.UpdateExpression : '';
  const condition = typeof body.ConditionExpression === 'string' ? body.ConditionExpression : '';
  const named = Object.values((body.ExpressionAttributeNames as object | undefined) ?? {});
  if (table === KEYS) {
    if (operation === 'UpdateItem') {
      if (stringOf((body.Key as Record<string, unknown>).pk)?.startsWith('ip#')) return 'POST /keys: attempt log';
      if (update.includes('webhook')) return 'PATCH /keys: webhook';
      return update.includes('counted') ? 'rate-limit count' : 'idempotency record';
    }
    if (operation === 'PutItem') return 'POST /keys: key put';
    if (operation === 'DeleteItem') return 'DELETE /keys';
  }
  if (table === SECRETS) {
    if (operation === 'BatchWriteItem') {
      const requests = (body.RequestItems as Record<string, { PutRequest?: unknown }[]>)[SECRETS] ?? [];
      return requests[0]?.PutRequest ? 'POST /secrets: chunks' : 'chunk deletes (revoke, stream consumer)';
    }
    if (operation === 'PutItem') {
      if (stringOf((body.Item as Record<string, unknown>).sk) === SECRET_RECEIPT_SK) return 'receipt (revoke, stream consumer)';
      return (body.Item as Record<string, unknown>).requestState ? 'POST /requests: head' : 'POST /secrets: head';
    }
    if (operation === 'UpdateItem') {
      // A fulfilment's keyed repeat whose first may be at work reads the request back, writing nothing.
      if (condition === renderCondition(NEVER).ConditionExpression) return 'POST /requests/{id}: repeat probe';
      // A create's keyed repeat marks the head it answers with.
      if (update.includes('repeatAnsweredAt')) return 'POST /secrets: repeat mark';
      if (update.includes('requestState')) return 'POST /requests/{id}: answer';
      if (update.includes(':minusOne')) return 'claim: reader sign-off';
      if (update.includes('burnedAt')) return 'claim: burn';
      return update.startsWith('SET attempts') ? 'claim: wrong proof count' : 'claim';
    }
    if (operation === 'DeleteItem') {
      if (named.includes('owner')) return 'DELETE /secrets/{id}';
      if (named.includes('createToken')) return 'POST /secrets: undo';
      // A keyed revoke's repeat's DeleteItem that deletes nothing: whether its first's head is there.
      return named.includes('remaining') ? 'stream consumer: head' : 'repeat: head check';
    }
  }
  return undefined;
}

/** Writes settled by sending them again (each the same whether applied once or twice), not by a read. */
const REPEATED_WRITES = [
  'POST /secrets: chunks',
  'chunk deletes (revoke, stream consumer)',
  'repeat: head check',
  'POST /secrets: repeat mark',
  'idempotency record',
  'POST /requests/{id}: repeat probe',
];

const EVERY_WRITE = [
  'POST /keys: attempt log',
  'POST /keys: key put',
  'rate-limit count',
  'PATCH /keys: webhook',
  'DELETE /keys',
  'POST /secrets: chunks',
  'POST /secrets: head',
  'claim',
  'claim: reader sign-off',
  'claim: wrong proof count',
  'claim: burn',
  'DELETE /secrets/{id}',
  'chunk deletes (revoke, stream consumer)',
  'stream consumer: head',
  'receipt (revoke, stream consumer)',
  'POST /requests: head',
  'POST /requests/{id}: answer',
  'POST /requests/{id}: repeat probe',
];

const faults = new Map<string, number>();
const countFault = (kind: FaultKind, write: string): void => {
  faults.set(write, (faults.get(write) ?? 0) + 1);
  faults.set(kind, (faults.get(kind) ?? 0) + 1);
};
const faultsGiven = (): number => (faults.get('500') ?? 0) + (faults.get('reset') ?? 0) + (faults.get('silence') ?? 0);

/** Every answer a story got, checked where it is received (statuses, bodies, data). */
const mustBeGone: string[] = [];
const expectedEvents = new Map<string, string[]>();

/**
 * Every answer of a request's first call of each write, and of the SDK's two repeats of it, lost:
 * the write must be settled by its read, whatever the SDK would do. Set while requests run one
 * at a time, so that each request gets it.
 */
const SETTLING_PATTERN = ['500', 'reset', '500', 'pass'] as const;
/** The second round's: the first attempt's answer never comes (the SDK gives up after 2 s). */
const SILENT_SETTLING_PATTERN = ['silence', 'reset', '500', 'pass'] as const;
let pattern: readonly (FaultKind | 'pass')[] = SETTLING_PATTERN;
/**
 * A batch of puts or deletes (or a DeleteItem that deletes nothing) is settled by sending it
 * again, not by a read: once the SDK's quota is spent, each send is one attempt, and three sends
 * are what a write gets.
 */
const BATCH_SETTLING_PATTERN = ['500', 'reset', 'pass'] as const;
/**
 * Which batch a call is, by its first item. A revoke's chunk deletes and the stream consumer's are
 * one class, and the consumer deletes an earlier story's chunked secret about 5 s after its last
 * view (the claim's retry window and a margin), while later stories run. Counted as one, a
 * consumer's delete arriving between a revoke's sends took the pattern's 'pass', and the revoke
 * met three faults in a row: a 503 the plan never meant (docs/testing.md).
 */
type BatchRequest = { DeleteRequest?: { Key: unknown }; PutRequest?: { Item: Record<string, unknown> } };
const batchOf = ({ operation, body }: DynamoDbCall): string => {
  if (operation !== 'BatchWriteItem') return '';
  const [first] = Object.values(body.RequestItems as Record<string, BatchRequest[]>)[0] ?? [];
  return JSON.stringify(first?.DeleteRequest?.Key ?? first?.PutRequest?.Item.pk ?? null);
};
let faultEveryFirstWrite = false;
const beforeRequest = (): void => {
  if (!faultEveryFirstWrite) return;
  proxy.planFaults({
    classify: writeOf,
    pattern,
    patternOf: (write) => (REPEATED_WRITES.includes(write) ? BATCH_SETTLING_PATTERN : undefined),
    writeOf: batchOf,
    onFault: countFault,
  });
};

let owners = 0;
/**
 * A key of its own whose requests are counted in order, so that each answer's rate-limit headers
 * can be checked against the count it would have had without faults.
 */
async function newOwner(events: string[] | undefined) {
  const path = `/owner-${++owners}`;
  beforeRequest();
  const created = await api('POST', '/keys', {
    localAddress: freshClientAddress(),
    ...(events ? { json: { webhook: receiver.url(path) } } : {}),
    baseUrl,
  });
  expect(created.status).toBe(201);
  if (events) expectedEvents.set(path, events);
  const key = String(created.body.key);
  let requests = 0;
  const send = async (method: string, route: string, json?: Record<string, unknown>, headers?: Record<string, string>): Promise<ApiResponse> => {
    beforeRequest();
    const response = await api(method, route, { key, ...(json ? { json } : {}), ...(headers ? { headers } : {}), baseUrl });
    requests += 1;
    // Counted exactly once each, the lost answers notwithstanding.
    if (response.status !== 401) expect(response.headers['x-ratelimit-remaining']).toBe(String(100 - requests));
    await bystanderStep();
    return response;
  };
  return { key, path, send };
}

async function create(owner: Awaited<ReturnType<typeof newOwner>>, json: Record<string, unknown>): Promise<string> {
  const response = await owner.send('POST', '/secrets', json);
  expect(response.status).toBe(201);
  return String(response.body.id);
}

async function expectClaim(owner: Awaited<ReturnType<typeof newOwner>>, id: string, data: string, remaining: number): Promise<void> {
  const response = await owner.send('GET', `/secrets/${id}`);
  expect({ status: response.status, remaining: response.body.remaining }).toEqual({ status: 200, remaining });
  expect(response.body.data === data).toBe(true);
}

async function expectGone(owner: Awaited<ReturnType<typeof newOwner>>, id: string): Promise<void> {
  const claimed = await owner.send('GET', `/secrets/${id}`);
  expect(claimed.status).toBe(404);
  expect(claimed.body).toEqual({ error: ERRORS.secretNotFound });
}

const INLINE = 'aGVsbG8=';

/**
 * Fault-free traffic between the faulted requests: a bystander key creates two-view secrets and
 * claims them to the end, one request after each faulted one, with no fault planned while it runs
 * (the stream consumer's writes for it may still meet the next request's faults).
 */
let bystander: { key: string; path: string } | undefined;
let bystanderSecret: { id: string; remaining: number } | undefined;
let bystanderRequests = 0;
async function bystanderStep(): Promise<void> {
  if (!faultEveryFirstWrite || !bystander) return;
  proxy.planFaults(undefined);
  bystanderRequests += 1;
  if (!bystanderSecret) {
    const created = await api('POST', '/secrets', { key: bystander.key, json: { data: INLINE, views: 2 }, baseUrl });
    expect(created.status).toBe(201);
    bystanderSecret = { id: String(created.body.id), remaining: 2 };
    expectedEvents.get(bystander.path)?.push('secret.created');
  } else {
    const claimed = await api('GET', `/secrets/${bystanderSecret.id}`, { key: bystander.key, baseUrl });
    bystanderSecret.remaining -= 1;
    expect({ status: claimed.status, data: claimed.body.data, remaining: claimed.body.remaining }).toEqual({
      status: 200,
      data: INLINE,
      remaining: bystanderSecret.remaining,
    });
    expectedEvents.get(bystander.path)?.push(bystanderSecret.remaining === 0 ? 'secret.expired' : 'secret.viewed');
    if (bystanderSecret.remaining === 0) {
      mustBeGone.push(bystanderSecret.id);
      bystanderSecret = undefined;
    }
  }
}

const WRONG_PROOF = 'A'.repeat(43);
const gateOf = (proof: string): string => gateOfProof(proof)!;
const RIGHT_PROOF = 'i_PQi6-TyScqA9MAukcC98EiwpEjDZBynQ3TKvtyUXA';
const REQUEST_PUBLIC_KEY = requestPublicKey();

/** The stories of the fault phase: each what a user does, with the outcome it must have. */
const STORIES: Record<string, (seed: number) => Promise<void>> = {
  'an inline secret, its only view': async () => {
    const owner = await newOwner(['secret.created', 'secret.expired']);
    const id = await create(owner, { data: INLINE });
    await expectClaim(owner, id, INLINE, 0);
    await expectGone(owner, id);
    mustBeGone.push(id);
  },
  'an inline secret, three views': async () => {
    const owner = await newOwner(['secret.created', 'secret.viewed', 'secret.viewed', 'secret.expired']);
    const id = await create(owner, { data: INLINE, views: 3 });
    await expectClaim(owner, id, INLINE, 2);
    // Its receipt, the request's count settled as every route's: one view taken, none taken by asking.
    const receipt = await owner.send('GET', `/secrets/${id}/status`);
    expect({ status: receipt.status, state: receipt.body.state, remaining: receipt.body.remaining }).toEqual({
      status: 200,
      state: 'active',
      remaining: 2,
    });
    for (const remaining of [1, 0]) await expectClaim(owner, id, INLINE, remaining);
    await expectGone(owner, id);
    mustBeGone.push(id);
  },
  'a chunked secret, two views': async (seed) => {
    const owner = await newOwner(['secret.created', 'secret.viewed', 'secret.expired']);
    const data = base64Of(CHUNKED_BYTES, seed);
    const id = await create(owner, { data, views: 2 });
    await expectClaim(owner, id, data, 1);
    await expectClaim(owner, id, data, 0);
    await expectGone(owner, id);
    mustBeGone.push(id);
  },
  'a test event to the key’s webhook': async () => {
    const owner = await newOwner(['webhook.test']);
    const sent = await owner.send('POST', '/keys/webhook/test');
    expect(sent.status).toBe(202);
  },
  'an inline secret, revoked': async () => {
    const owner = await newOwner(['secret.created']);
    const id = await create(owner, { data: INLINE, views: 2 });
    const revoked = await owner.send('DELETE', `/secrets/${id}`);
    expect({ status: revoked.status, body: revoked.body }).toEqual({ status: 200, body: { deleted: true } });
    await expectGone(owner, id);
    // Not a second revoke: one whose first attempt's answer is lost finds no head and cannot
    // tell it from its own deletion, so it answers 200 (docs/retried-writes.md).
    mustBeGone.push(id);
  },
  'a chunked secret, revoked': async (seed) => {
    const owner = await newOwner(['secret.created']);
    const id = await create(owner, { data: base64Of(CHUNKED_BYTES, seed), views: 2 });
    const revoked = await owner.send('DELETE', `/secrets/${id}`);
    expect({ status: revoked.status, body: revoked.body }).toEqual({ status: 200, body: { deleted: true } });
    await expectGone(owner, id);
    mustBeGone.push(id);
  },
  'a gated secret: no proof, a wrong proof, then the right one': async () => {
    const owner = await newOwner(['secret.created', 'secret.expired']);
    const id = await create(owner, { data: INLINE, gate: gateOf(RIGHT_PROOF) });
    const refusals = [
      { proof: undefined, error: ERRORS.passphraseRequired, left: String(GATE.attempts) },
      { proof: WRONG_PROOF, error: ERRORS.wrongPassphrase, left: String(GATE.attempts - 1) },
    ];
    for (const { proof, error, left } of refusals) {
      const refused = await owner.send('GET', `/secrets/${id}`, undefined, proof ? { [GATE.proofHeader]: proof } : undefined);
      expect({ status: refused.status, body: refused.body, left: refused.headers[GATE.attemptsLeftHeader] }).toEqual({
        status: 403,
        body: { error },
        left,
      });
    }
    const claimed = await owner.send('GET', `/secrets/${id}`, undefined, { [GATE.proofHeader]: RIGHT_PROOF });
    expect({ status: claimed.status, data: claimed.body.data, remaining: claimed.body.remaining }).toEqual({
      status: 200,
      data: INLINE,
      remaining: 0,
    });
    mustBeGone.push(id);
  },
  'a gated secret burned by its wrong proofs': async () => {
    const owner = await newOwner(['secret.created', 'secret.burned']);
    const id = await create(owner, { data: INLINE, gate: gateOf(RIGHT_PROOF) });
    for (let left = GATE.attempts - 1; left >= 0; left--) {
      const refused = await owner.send('GET', `/secrets/${id}`, undefined, { [GATE.proofHeader]: WRONG_PROOF });
      expect({ status: refused.status, body: refused.body, left: refused.headers[GATE.attemptsLeftHeader] }).toEqual({
        status: 403,
        body: { error: ERRORS.wrongPassphrase },
        left: String(left),
      });
    }
    const after = await owner.send('GET', `/secrets/${id}`, undefined, { [GATE.proofHeader]: RIGHT_PROOF });
    expect({ status: after.status, body: after.body }).toEqual({ status: 404, body: { error: ERRORS.secretNotFound } });
    mustBeGone.push(id);
  },
  'a create and a claim with an Idempotency-Key, each repeated': async () => {
    const owner = await newOwner(['secret.created', 'secret.viewed', 'secret.expired']);
    const createKey = freshIdempotencyHeaders();
    const first = await owner.send('POST', '/secrets', { data: INLINE, views: 2 }, createKey);
    const repeated = await owner.send('POST', '/secrets', { data: INLINE, views: 2 }, createKey);
    expect([first.status, repeated.status]).toEqual([201, 201]);
    expect(repeated.body).toEqual(first.body);
    const id = String(first.body.id);
    const claimKey = freshIdempotencyHeaders();
    for (let repeat = 0; repeat < 2; repeat++) {
      const claimed = await owner.send('GET', `/secrets/${id}`, undefined, claimKey);
      expect({ status: claimed.status, data: claimed.body.data, remaining: claimed.body.remaining }).toEqual({
        status: 200,
        data: INLINE,
        remaining: 1,
      });
    }
    await expectClaim(owner, id, INLINE, 0);
    await expectGone(owner, id);
    mustBeGone.push(id);
  },
  'a secret request: asked twice under one key, answered (chunked) twice under one key, read': async (seed) => {
    const requester = await newOwner(['request.fulfilled', 'secret.expired']);
    const sender = await newOwner(undefined);
    const askKey = freshIdempotencyHeaders();
    const asked = await requester.send('POST', '/requests', { publicKey: REQUEST_PUBLIC_KEY, note: 'the password' }, askKey);
    const askedAgain = await requester.send('POST', '/requests', { publicKey: REQUEST_PUBLIC_KEY, note: 'the password' }, askKey);
    expect([asked.status, askedAgain.status]).toEqual([201, 201]);
    expect(askedAgain.body).toEqual(asked.body);
    const id = String(asked.body.id);
    const opened = await sender.send('GET', `/requests/${id}`);
    expect({ status: opened.status, publicKey: opened.body.publicKey }).toEqual({ status: 200, publicKey: REQUEST_PUBLIC_KEY });
    const data = base64Of(CHUNKED_BYTES, seed);
    const answerKey = freshIdempotencyHeaders();
    for (let repeat = 0; repeat < 2; repeat++) {
      const answered = await sender.send('POST', `/requests/${id}`, { data }, answerKey);
      expect({ status: answered.status, body: answered.body }).toEqual({ status: 201, body: { fulfilled: true } });
    }
    const state = await requester.send('GET', `/requests/${id}/status`);
    expect({ status: state.status, state: state.body.state }).toEqual({ status: 200, state: 'fulfilled' });
    await expectClaim(requester, id, data, 0);
    await expectGone(requester, id);
    mustBeGone.push(id);
  },
  'a key: webhook set and removed, then revoked': async () => {
    const owner = await newOwner(undefined);
    const set = await owner.send('PATCH', '/keys', { webhook: receiver.url(`${owner.path}-patched`) });
    expect({ status: set.status, body: set.body }).toEqual({ status: 200, body: { updated: true } });
    expect((await owner.send('GET', '/keys')).body).toMatchObject({ webhook: receiver.url(`${owner.path}-patched`) });
    const removed = await owner.send('PATCH', '/keys', { webhook: '' });
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 200, body: { updated: true } });
    const deleted = await owner.send('DELETE', '/keys');
    expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 200, body: { deleted: true } });
    beforeRequest();
    const after = await api('GET', '/keys', { key: owner.key, baseUrl });
    expect({ status: after.status, body: after.body }).toEqual({ status: 401, body: { error: ERRORS.invalidApiKey } });
  },
};

/**
 * Proves that the pipeline has processed everything committed so far: an event of another key,
 * committed now, arrives only after the stream records before it went through the fan-out.
 */
let sentinels = 0;
async function drainPipeline(): Promise<void> {
  const path = `/sentinel-${++sentinels}`;
  const sentinel = await createKey({ webhook: receiver.url(path) }, baseUrl);
  await api('POST', '/secrets', { key: sentinel.key, json: { data: 'c2VudGluZWw=' }, baseUrl });
  await receiver.waitFor(path, 1, DELIVERY_WAIT_MS);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

/**
 * Every consumed or revoked secret leaves no item, and every owner got exactly its story's events,
 * one per event id: delivery is at least once, and a stream batch retried after a consumer write
 * failed repeats its records' events under their ids (docs/webhooks.md).
 */
async function expectEverySecretSettled(): Promise<void> {
  // The stream consumer's deletions happen off the request path, some after a claim's retry window.
  await Promise.all(mustBeGone.map((id) => eventually(async () => expect(await itemsOfSecret(id, SECRETS)).toEqual([]), DELIVERY_WAIT_MS)));
  await Promise.all([...expectedEvents].map(([path, events]) => receiver.waitFor(path, events.length, DELIVERY_WAIT_MS)));
  await drainPipeline();
  const sent = Object.fromEntries([...expectedEvents.keys()].map((path) => [path, distinctEvents(receiver.received(path))]));
  expect(sent).toEqual(Object.fromEntries([...expectedEvents].map(([path, events]) => [path, [...events].sort()])));
}

test('every write of every route, its answers lost, between fault-free requests: settled, answered as without faults', async () => {
  try {
    // One story at a time: each asserts every answer it gets, and a bystander's request follows each.
    for (const [round, stories] of [Object.keys(STORIES), SILENT_ROUND_STORIES].entries()) {
      // A bystander key per round, within its rate limit.
      const path = `/bystander-${round}`;
      bystander = { key: (await createKey({ webhook: receiver.url(path) }, baseUrl)).key, path };
      bystanderSecret = undefined;
      expectedEvents.set(path, []);
      faultEveryFirstWrite = true;
      pattern = round === 0 ? SETTLING_PATTERN : SILENT_SETTLING_PATTERN;
      for (const story of stories) await STORIES[story]!(10 + owners);
      proxy.planFaults(undefined);
      faultEveryFirstWrite = false;
    }
    await expectEverySecretSettled();
  } finally {
    faultEveryFirstWrite = false;
    proxy.planFaults(undefined);
    console.log(
      `store-faults: ${faultsGiven()} lost answers, ${bystanderRequests} fault-free requests between: ${JSON.stringify(Object.fromEntries(faults))}`,
    );
  }
  expect(EVERY_WRITE.filter((write) => !faults.has(write))).toEqual([]);
  expect(faultsGiven()).toBeGreaterThanOrEqual(MIN_FAULTS);
  expect(faults.get('silence') ?? 0).toBeGreaterThan(0);
}, 300_000);

/** Two-view secrets made while DynamoDB is fast, to be claimed while it is slow. */
async function secretsToClaim(count: number): Promise<{ key: string; id: string; data: string }[]> {
  const { key } = await createKey(undefined, baseUrl);
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      // One chunked secret among them: its claim makes four calls, not two.
      const data = index === 0 ? base64Of(CHUNKED_BYTES, 500) : base64Of(60, 500 + index);
      const response = await api('POST', '/secrets', { key, json: { data, views: 2 }, baseUrl });
      expect(response.status).toBe(201);
      return { key, id: String(response.body.id), data };
    }),
  );
}

/** Each claim answers the data, or 503 with retry-after; it answers what it took. */
async function claimEach(secrets: { key: string; id: string; data: string }[]): Promise<number[]> {
  return Promise.all(
    secrets.map(async ({ key, id, data }) => {
      const response = await api('GET', `/secrets/${id}`, { key, baseUrl });
      if (response.status === 503) {
        expect(response.body).toEqual({ error: ERRORS.storeUnavailable });
        expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
        return 0;
      }
      expect(response.status).toBe(200);
      expect(response.body.data === data).toBe(true);
      return 1;
    }),
  );
}

test('a slow DynamoDB (1.5 s, then 3 s per answer): GET /health says so, and no view is taken without its claim answering the data', async () => {
  const secrets = await secretsToClaim(5);
  const delivered = secrets.map(() => 0);

  for (const answerMs of [1_500, 3_000]) {
    proxy.answerAfter(answerMs);
    const [health, claims] = await Promise.all([api('GET', '/health', { baseUrl }), claimEach(secrets)]);
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unhealthy' });
    expect(health.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    claims.forEach((taken, index) => (delivered[index] = (delivered[index] ?? 0) + taken));
  }
  proxy.answerAfter(0);

  // Every view taken was answered: what is left is the views less the answers with data.
  expect((await api('GET', '/health', { baseUrl })).body).toMatchObject({ status: 'healthy', redis: 'connected' });
  for (const [index, { id }] of secrets.entries()) {
    const [head] = await itemsOfSecret(id, SECRETS);
    expect({ id, remaining: head?.sk === SECRET_HEAD_SK ? head.remaining : 0 }).toEqual({ id, remaining: 2 - (delivered[index] ?? 0) });
  }
});

test('DynamoDB unreachable: 503 with retry-after, and once it is back, everything is there', async () => {
  const [secret] = await secretsToClaim(2);
  proxy.setDown(true);
  try {
    const [health, claimed, created] = await Promise.all([
      api('GET', '/health', { baseUrl }),
      api('GET', `/secrets/${secret?.id}`, { key: secret?.key, baseUrl }),
      api('POST', '/secrets', { key: secret?.key, json: { data: INLINE }, baseUrl }),
    ]);
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unhealthy', redis: 'disconnected' });
    for (const refused of [claimed, created]) {
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 503, body: { error: ERRORS.storeUnavailable } });
      expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    }
  } finally {
    proxy.setDown(false);
  }
  // Recovered by itself, nothing lost: the secret still has both its views.
  const claimed = await api('GET', `/secrets/${secret?.id}`, { key: secret?.key, baseUrl });
  expect({ status: claimed.status, remaining: claimed.body.remaining }).toEqual({ status: 200, remaining: 1 });
  expect(claimed.body.data === secret?.data).toBe(true);
});
