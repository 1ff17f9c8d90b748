import { SETTINGS } from '#lambdas/config/settings';
import { DATA_CHUNK_BYTES } from '#contract/limits';
import { LOG_MESSAGES, METRICS } from '#lambdas/definitions/observability';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { api, base64Of, freshClientAddress, type ApiRequest, type ApiResponse } from '../support/api';
import type { LocalServer } from '../support/local-server';
import { serverWithReceiverForThisFile } from './support/server-with-receiver';

/**
 * Everything local mode and its webhook pipeline print during a full session (keys, secrets of
 * every size, claims to exhaustion, revocations, webhooks delivered and retried, refused
 * requests), read line by line: no API key, webhook secret or URL, secret id or secret data (nor
 * any stretch of its base64) appears in any of them, and each request that reached a function
 * left exactly its structured line.
 */

const DELIVERY_WAIT_MS = 20_000;
/** The length of the data's base64 stretches looked for: long enough never to occur by chance. */
const FRAGMENT = 24;

let server: LocalServer;
let receiver: WebhookReceiver;

serverWithReceiverForThisFile(
  { keysTable: 'it-logs-keys', secretsTable: 'it-logs-secrets', env: { [SETTINGS.webhookRetryBaseMs.env]: '1000' } },
  (started) => ({ server, receiver } = started),
);

/** What a request that reached a function was answered: each must have left its line. */
interface Answered {
  requestId: string;
  route: string;
  status: number;
}

interface Session {
  answered: Answered[];
  /** Must appear in no line. */
  confidential: string[];
  /** Secret data (base64): no stretch of FRAGMENT characters of it may appear in any line. */
  data: string[];
  /** Events delivered to the owner's webhook. */
  webhookEvents: number;
}

async function runSession(): Promise<Session> {
  const session: Session = { answered: [], confidential: [], data: [], webhookEvents: 0 };
  const baseUrl = server.baseUrl;
  const call = async <TBody = Record<string, unknown>>(
    method: string,
    route: string,
    path: string,
    options: ApiRequest = {},
  ): Promise<ApiResponse<TBody>> => {
    const response = await api<TBody>(method, path, { baseUrl, ...options });
    session.answered.push({ requestId: response.headers['x-request-id'] ?? '', route: `${method} /api/v1${route}`, status: response.status });
    return response;
  };
  const expectStatus = (response: ApiResponse<unknown>, status: number): void =>
    expect({ status: response.status, body: response.raw.slice(0, 200) }).toMatchObject({ status });

  // Keys: one with a webhook (its URL holds a token, as receivers' URLs often do), one without.
  // The receiver refuses the first delivery, so that a failed attempt is logged too.
  const hookPath = '/hooks/tok_c0ffee4b1d2e3f4a5b6c';
  receiver.answer(hookPath, (attempt) => ({ status: attempt === 1 ? 503 : 204 }));
  const withHook = await call<{ key: string; webhookSecret: string }>('POST', '/keys', '/keys', {
    json: { webhook: receiver.url(hookPath) },
    localAddress: freshClientAddress(),
  });
  const plain = await call<{ key: string; webhookSecret: string }>('POST', '/keys', '/keys', { localAddress: freshClientAddress() });
  expectStatus(withHook, 201);
  expectStatus(plain, 201);
  const owner = withHook.body.key;
  const other = plain.body.key;
  session.confidential.push(owner, other, withHook.body.webhookSecret, plain.body.webhookSecret, hookPath);
  expectStatus(await call('GET', '/keys', '/keys', { key: owner }), 200);
  expectStatus(await call('PATCH', '/keys', '/keys', { key: other, json: { webhook: '' } }), 200);

  // Secrets of every size, a file among them, and one large enough to be stored in chunks.
  const sizes = [12, 1_000, 100_000, DATA_CHUNK_BYTES + 150_000];
  const created: { id: string; views: number }[] = [];
  for (const [index, bytes] of sizes.entries()) {
    const data = base64Of(bytes, 100 + index);
    const file = index === 1 ? { type: 'file', filename: 'payroll.csv', mimetype: 'text/csv' } : {};
    const views = index === 0 ? 3 : 1;
    const response = await call<{ id: string; url: string }>('POST', '/secrets', '/secrets', { key: owner, json: { data, views, ...file } });
    expectStatus(response, 201);
    session.data.push(data);
    session.confidential.push(response.body.id);
    created.push({ id: response.body.id, views });
  }

  // Claims to exhaustion, the 3-view secret's all at once (each request's line must be its own), then one more.
  for (const { id, views } of created) {
    const claims = await Promise.all(Array.from({ length: views + 1 }, () => call('GET', '/secrets/{id}', `/secrets/${id}`, { key: owner })));
    expect(claims.map((claim) => claim.status).sort()).toEqual([...Array<number>(views).fill(200), 404]);
  }

  // Revocations: a live secret, then the same again, and another key's attempt.
  const doomedData = base64Of(2_000, 999);
  const doomed = await call<{ id: string }>('POST', '/secrets', '/secrets', { key: owner, json: { data: doomedData } });
  session.data.push(doomedData);
  session.confidential.push(doomed.body.id);
  expectStatus(await call('DELETE', '/secrets/{id}', `/secrets/${doomed.body.id}`, { key: other }), 404);
  expectStatus(await call('DELETE', '/secrets/{id}', `/secrets/${doomed.body.id}`, { key: owner }), 200);
  expectStatus(await call('DELETE', '/secrets/{id}', `/secrets/${doomed.body.id}`, { key: owner }), 404);

  // Refused requests, their bodies holding what must not be logged either.
  const refusedData = base64Of(3_000, 4242);
  session.data.push(refusedData);
  expectStatus(
    await call('POST', '/secrets', '/secrets', { key: owner, rawBody: `{"data":"${refusedData}"`, headers: { 'content-type': 'application/json' } }),
    400,
  );
  expectStatus(await call('POST', '/secrets', '/secrets', { json: { data: refusedData } }), 401);
  expectStatus(await call('POST', '/secrets', '/secrets', { key: `${owner}x`, json: { data: refusedData } }), 401);
  expect((await api('GET', `/nowhere/${created[0]?.id ?? ''}`, { baseUrl, key: owner })).status).toBe(404);

  // Webhooks: each of the owner's secrets was created and viewed to the last (one was revoked instead).
  session.webhookEvents = created.reduce((sum, { views }) => sum + 1 + views, 0) + 1;
  await receiver.waitFor(hookPath, session.webhookEvents + 1, DELIVERY_WAIT_MS);

  expectStatus(await call('DELETE', '/keys', '/keys', { key: other }), 200);
  return session;
}

/** Every FRAGMENT-character stretch of the lines, to look the data's stretches up in. */
function stretchesOf(lines: readonly string[]): Set<string> {
  const stretches = new Set<string>();
  for (const line of lines) for (let start = 0; start + FRAGMENT <= line.length; start++) stretches.add(line.slice(start, start + FRAGMENT));
  return stretches;
}

test('a full session logs each request’s structured line and never a key, a webhook secret, a secret id or secret data', async () => {
  const session = await runSession();
  expect(await server.stop()).toBe(0);
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
  const json = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);

  // Nothing confidential, in any line of either process.
  for (const value of session.confidential) expect(lines.filter((line) => line.includes(value))).toEqual([]);
  const stretches = stretchesOf(lines);
  for (const data of session.data) {
    for (let start = 0; start + FRAGMENT <= data.length; start++) {
      if (stretches.has(data.slice(start, start + FRAGMENT))) throw new Error(`a log line holds secret data: ${data.slice(start, start + FRAGMENT)}`);
    }
  }

  // Each request that reached a function: exactly one line, under its own request id, with its route template and status.
  const requestLines = json.filter((line) => line.message === LOG_MESSAGES.request);
  expect(requestLines.map(({ correlation_id, route, status }) => ({ requestId: correlation_id, route, status })).sort(byRequestId)).toEqual(
    [...session.answered].sort(byRequestId),
  );
  expect(session.answered.map(({ status }) => status)).toEqual(expect.arrayContaining([200, 201, 400, 401, 404]));

  // The pipeline's process logs too, and the functions' metrics are there.
  expect(json).toContainEqual(expect.objectContaining({ message: LOG_MESSAGES.streamBatch, level: 'INFO' }));
  expect(json).toContainEqual(expect.objectContaining({ message: LOG_MESSAGES.webhookAttempt, outcome: 'delivered' }));
  expect(json).toContainEqual(expect.objectContaining({ message: LOG_MESSAGES.webhookAttempt, outcome: 'failed', level: 'WARN' }));
  const counted = (metric: string): number => json.reduce((sum, line) => sum + ('_aws' in line ? Number(line[metric] ?? 0) : 0), 0);
  expect(counted(METRICS.secretsCreated)).toBe(5);
  expect(counted(METRICS.secretsClaimed)).toBe(6);
  expect(counted(METRICS.claimsRefused)).toBe(4);
  expect(counted(METRICS.secretsRevoked)).toBe(1);
  expect(counted(METRICS.webhooksDelivered)).toBe(session.webhookEvents);
  expect(counted(METRICS.webhookAttemptsFailed)).toBe(1);

  // Local mode's own line per request stays, and says it is the gateway's.
  expect(lines).toContainEqual(expect.stringMatching(/^gateway GET \/api\/v1\/secrets\/\{id\} 404 \d+ms/));
});

const byRequestId = (a: { requestId: unknown }, b: { requestId: unknown }): number => String(a.requestId).localeCompare(String(b.requestId));
