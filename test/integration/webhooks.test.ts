import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { SETTINGS } from '#lambdas/config/settings';
import { ERRORS } from '#contract/errors';
import { WEBHOOK_ATTEMPTS, WEBHOOK_HEADERS, WEBHOOK_REQUEST_TIMEOUT_MS } from '#lambdas/definitions/webhooks';
import { verifyWebhook } from '#client/webhook';
import { signatureHeader, standardWebhookSignature } from '#lambdas/webhooks/signature';
import { localSqsClient } from '#local/queue-service';
import { api, base64Of, createKey, createRequest, createSecret, freshClientAddress } from '../support/api';
import type { LocalServer } from '../support/local-server';
import { serverWithReceiverForThisFile } from './support/server-with-receiver';
import type { ReceivedRequest, WebhookReceiver } from '../support/webhook-receiver';
import { validate, type Schema } from '../support/json-schema';
import { OPENAPI_PATH } from '#scripts/openapi';
import { Webhook } from 'standardwebhooks';
import { onetime } from './support/cli';

/**
 * The webhook pipeline end to end in local mode: DynamoDB Local's stream → fan-out → local queue
 * → delivery → a real receiver on 127.0.0.1. This file runs its own server, with loopback
 * webhooks allowed and its own tables, next to the shared one (which keeps the flag off).
 */

/** The schedule scaled down: nominal waits of 0.1, 1.2 and 14.4 s, which SQS rounds up to whole seconds. */
const RETRY_BASE_MS = 100;
const DELIVERY_WAIT_MS = 15_000;
/** After a sentinel event has arrived, how long an event queued before it may still be on its way. */
const SETTLE_MS = 500;

let server: LocalServer;
let receiver: WebhookReceiver;
let baseUrl: string;

serverWithReceiverForThisFile(
  { keysTable: 'it-webhook-keys', secretsTable: 'it-webhook-secrets', env: { [SETTINGS.webhookRetryBaseMs.env]: String(RETRY_BASE_MS) } },
  (started) => ({ server, receiver, baseUrl } = started),
);

let paths = 0;
/** A key whose webhook is its own receiver path. */
async function subscribedKey(name: string): Promise<{ key: string; webhookSecret: string; path: string }> {
  const path = `/${name}-${++paths}`;
  const { key, webhookSecret } = await createKey({ webhook: receiver.url(path) }, baseUrl);
  return { key, webhookSecret, path };
}

interface Delivered {
  payload: { event: string; timestamp: number; data: { id: string } };
  eventId: string;
  signature: string;
  request: ReceivedRequest;
}

function delivered(request: ReceivedRequest): Delivered {
  return {
    payload: JSON.parse(request.rawBody.toString('utf8')) as Delivered['payload'],
    eventId: String(request.headers[WEBHOOK_HEADERS.eventId]),
    signature: String(request.headers[WEBHOOK_HEADERS.signature]),
    request,
  };
}

const claim = (key: string, id: string) => api('GET', `/secrets/${id}`, { key, baseUrl });

const OPENAPI = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Schema & { components: { schemas: { WebhookEvent: Schema } } };
/** What docs/openapi.json's WebhookEvent says of a delivered body that it does not match: nothing, when it does. */
const undocumentedInEvent = (event: Delivered): string[] => validate(OPENAPI.components.schemas.WebhookEvent, event.payload, OPENAPI);

/**
 * Proves that the pipeline has processed everything committed so far: an event of another key,
 * committed now, arrives only after the stream records before it went through the fan-out.
 */
async function drainPipeline(): Promise<void> {
  const sentinel = await subscribedKey('sentinel');
  await createSecret(sentinel.key, { data: 'c2VudGluZWw=' }, baseUrl);
  await receiver.waitFor(sentinel.path, 1, DELIVERY_WAIT_MS);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

test("a 2-view secret sends created, viewed and expired, each signed with the key's webhookSecret", async () => {
  const owner = await subscribedKey('events');
  const { id } = await createSecret(owner.key, { data: 'aGVsbG8=', views: 2 }, baseUrl);
  expect((await claim(owner.key, id)).status).toBe(200);
  expect((await claim(owner.key, id)).status).toBe(200);

  const events = (await receiver.waitFor(owner.path, 3, DELIVERY_WAIT_MS)).map(delivered);
  events.sort((a, b) => a.payload.timestamp - b.payload.timestamp);
  expect(events.map((event) => event.payload.event)).toEqual(['secret.created', 'secret.viewed', 'secret.expired']);
  for (const event of events) {
    expect(Object.keys(event.payload).sort()).toEqual(['data', 'event', 'timestamp']);
    expect(event.payload.data).toEqual({ id });
    expect(undocumentedInEvent(event)).toEqual([]);
    expect(event.request.method).toBe('POST');
    expect(event.request.headers['content-type']).toBe('application/json');
    expect(await verifyWebhook(event.request.rawBody, event.signature, owner.webhookSecret)).toBe(true);
    expect(await verifyWebhook(event.request.rawBody, event.signature, `${owner.webhookSecret}x`)).toBe(false);
  }
  expect(new Set(events.map((event) => event.eventId)).size).toBe(3);

  await drainPipeline();
  expect(receiver.received(owner.path)).toHaveLength(3);
});

test("a request's fulfilment sends request.fulfilled to the requester's key, its answer's view secret.expired, and nothing else", async () => {
  const requester = await subscribedKey('requests');
  const sender = await subscribedKey('senders');
  const { id } = await createRequest(requester.key, { note: 'a note' }, baseUrl);
  const before = Date.now();
  expect((await api('POST', `/requests/${id}`, { key: sender.key, json: { data: 'YW5zd2Vy' }, baseUrl })).status).toBe(201);

  const [fulfilled] = (await receiver.waitFor(requester.path, 1, DELIVERY_WAIT_MS)).map(delivered);
  expect(fulfilled?.payload).toEqual({ event: 'request.fulfilled', timestamp: expect.any(Number), data: { id } });
  expect(fulfilled?.payload.timestamp).toBeGreaterThanOrEqual(before);
  expect(undocumentedInEvent(fulfilled!)).toEqual([]);
  expect(await verifyWebhook(fulfilled!.request.rawBody, fulfilled!.signature, requester.webhookSecret)).toBe(true);

  expect((await claim(requester.key, id)).status).toBe(200);
  const events = (await receiver.waitFor(requester.path, 2, DELIVERY_WAIT_MS)).map(delivered);
  expect(events.map((event) => event.payload)).toEqual([
    expect.objectContaining({ event: 'request.fulfilled' }),
    expect.objectContaining({ event: 'secret.expired', data: { id } }),
  ]);

  await drainPipeline();
  // No secret.created for the request or its answer; nothing at all for the sender's key.
  expect(receiver.received(requester.path)).toHaveLength(2);
  expect(receiver.received(sender.path)).toHaveLength(0);
});

test('a large (chunked) secret sends exactly one event per view, none for its readers bookkeeping', async () => {
  const owner = await subscribedKey('large');
  const { id } = await createSecret(owner.key, { data: base64Of(1_000_000), views: 2 }, baseUrl);
  expect((await claim(owner.key, id)).status).toBe(200);
  expect((await claim(owner.key, id)).status).toBe(200);

  await receiver.waitFor(owner.path, 3, DELIVERY_WAIT_MS);
  await drainPipeline();
  const events = receiver.received(owner.path).map((request) => delivered(request).payload.event);
  expect(events.sort()).toEqual(['secret.created', 'secret.expired', 'secret.viewed']);
});

test('a receiver failing twice gets the event three times, with the same event id and growing gaps', async () => {
  const owner = await subscribedKey('flaky');
  receiver.answer(owner.path, (attempt) => ({ status: attempt <= 2 ? 503 : 204 }));
  await createSecret(owner.key, { data: 'Zmxha3k=' }, baseUrl);

  const attempts = (await receiver.waitFor(owner.path, 3, DELIVERY_WAIT_MS)).map(delivered);
  expect(new Set(attempts.map((attempt) => attempt.eventId)).size).toBe(1);
  expect(new Set(attempts.map((attempt) => attempt.request.rawBody.toString())).size).toBe(1);
  // Signed afresh: each attempt carries its own time.
  expect(new Set(attempts.map((attempt) => attempt.signature)).size).toBe(3);
  for (const attempt of attempts) {
    expect(await verifyWebhook(attempt.request.rawBody, attempt.signature, owner.webhookSecret)).toBe(true);
  }
  const [first, second, third] = attempts.map((attempt) => attempt.request.receivedAt) as [number, number, number];
  // base × 12^(n−1) after the failed attempt, ±10%: 0.1 s, then 1.2 s, in whole seconds 1 s and 2 s.
  expect(second - first).toBeGreaterThanOrEqual(900);
  expect(third - second).toBeGreaterThanOrEqual(1_800);
  expect(third - second).toBeGreaterThan(second - first);

  await drainPipeline();
  expect(receiver.received(owner.path)).toHaveLength(3);
});

test('an always-failing receiver gets exactly 4 attempts, then the event is in the dead-letter queue', async () => {
  const owner = await subscribedKey('down');
  receiver.answer(owner.path, () => ({ status: 500 }));
  await createSecret(owner.key, { data: 'ZG93bg==' }, baseUrl);

  // Waits of 1, 2 and 13 to 16 s.
  const attempts = (await receiver.waitFor(owner.path, WEBHOOK_ATTEMPTS, 40_000)).map(delivered);
  const eventId = attempts[0]?.eventId;
  expect(new Set(attempts.map((attempt) => attempt.eventId))).toEqual(new Set([eventId]));

  const deadLetter = await findDeadLetter(eventId ?? '', 10_000);
  expect(deadLetter).toMatchObject({ eventId, event: { event: 'secret.created' } });
  expect(receiver.received(owner.path)).toHaveLength(WEBHOOK_ATTEMPTS);
});

test("a 503's Retry-After sets the wait before the next attempt, within the schedule's bounds", async () => {
  const owner = await subscribedKey('busy');
  receiver.answer(owner.path, (attempt) => (attempt === 1 ? { status: 503, headers: { 'retry-after': '4' } } : { status: 204 }));
  await createSecret(owner.key, { data: 'YnVzeQ==' }, baseUrl);

  const [first, second] = (await receiver.waitFor(owner.path, 2, DELIVERY_WAIT_MS)).map((request) => request.receivedAt) as [number, number];
  // Not the schedule's 1 s: the 4 s the receiver asked for (within 0.1 to 14.4 s).
  expect(second - first).toBeGreaterThanOrEqual(3_800);
});

test('a 410 Gone ends the retries of that event, and it is not dead-lettered', async () => {
  const owner = await subscribedKey('gone');
  receiver.answer(owner.path, () => ({ status: 410 }));
  await createSecret(owner.key, { data: 'Z29uZQ==' }, baseUrl);

  const [attempt] = (await receiver.waitFor(owner.path, 1, DELIVERY_WAIT_MS)).map(delivered);
  // Past the first retry's wait (1 s), and as long again.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await drainPipeline();
  expect(receiver.received(owner.path)).toHaveLength(1);
  await expect(findDeadLetter(attempt?.eventId ?? '', 2_000)).rejects.toThrow('did not reach the dead-letter queue');
});

test('a receiver slower than the 10 s timeout has failed, and the event is retried', async () => {
  const owner = await subscribedKey('slow');
  receiver.answer(owner.path, (attempt) => (attempt === 1 ? { status: 200, delayMs: WEBHOOK_REQUEST_TIMEOUT_MS + 1_500 } : { status: 200 }));
  await createSecret(owner.key, { data: 'c2xvdw==' }, baseUrl);

  const attempts = (await receiver.waitFor(owner.path, 2, WEBHOOK_REQUEST_TIMEOUT_MS + DELIVERY_WAIT_MS)).map(delivered);
  expect(attempts[1]?.eventId).toBe(attempts[0]?.eventId);
  const [first, second] = attempts.map((attempt) => attempt.request.receivedAt) as [number, number];
  expect(second - first).toBeGreaterThanOrEqual(WEBHOOK_REQUEST_TIMEOUT_MS);
}, 60_000);

test('revoking a secret sends nothing', async () => {
  const owner = await subscribedKey('revoked');
  const { id } = await createSecret(owner.key, { data: 'cmV2b2tlZA==', views: 3 }, baseUrl);
  await receiver.waitFor(owner.path, 1, DELIVERY_WAIT_MS);
  expect((await api('DELETE', `/secrets/${id}`, { key: owner.key, baseUrl })).status).toBe(200);

  await drainPipeline();
  expect(receiver.received(owner.path).map((request) => delivered(request).payload.event)).toEqual(['secret.created']);
});

test('after PATCH /keys {"webhook": ""} nothing more arrives', async () => {
  const owner = await subscribedKey('unsubscribed');
  const { id } = await createSecret(owner.key, { data: 'dW5zdWJzY3JpYmVk', views: 2 }, baseUrl);
  await receiver.waitFor(owner.path, 1, DELIVERY_WAIT_MS);

  expect((await api('PATCH', '/keys', { key: owner.key, json: { webhook: '' }, baseUrl })).status).toBe(200);
  expect((await claim(owner.key, id)).status).toBe(200);
  await createSecret(owner.key, { data: 'YWdhaW4=' }, baseUrl);

  await drainPipeline();
  expect(receiver.received(owner.path)).toHaveLength(1);
});

describe('POST /keys/webhook/test', () => {
  test('queues a webhook.test event, delivered signed both ways under the eventId it answers', async () => {
    const owner = await subscribedKey('test-event');
    const queued = await api('POST', '/keys/webhook/test', { key: owner.key, baseUrl });
    expect(queued.status).toBe(202);
    const { eventId } = queued.body as { eventId: string };
    expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);

    const [event] = (await receiver.waitFor(owner.path, 1, DELIVERY_WAIT_MS)).map(delivered);
    expect(event?.payload).toEqual({ event: 'webhook.test', timestamp: expect.any(Number), data: {} });
    expect(event?.eventId).toBe(eventId);
    expect(undocumentedInEvent(event!)).toEqual([]);
    expect(await verifyWebhook(event!.request.rawBody, event!.signature, owner.webhookSecret)).toBe(true);
    expect(new Webhook(owner.webhookSecret).verify(event!.request.body, event!.request.headers as Record<string, string>)).toEqual(event?.payload);
  });

  test('answers 400 naming the problem when the key has no webhook, and queues nothing', async () => {
    const { key } = await createKey(undefined, baseUrl);
    const refused = await api('POST', '/keys/webhook/test', { key, baseUrl });
    expect(refused).toMatchObject({ status: 400, body: { error: ERRORS.noWebhook } });
  });

  test('onetime webhook test does it from the CLI, and the event is retried like any other', async () => {
    const owner = await subscribedKey('cli-test-event');
    receiver.answer(owner.path, (attempt) => ({ status: attempt === 1 ? 500 : 204 }));
    const result = await onetime(['webhook', 'test'], { apiKey: owner.key, env: { ONETIME_API_URL: baseUrl } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const printed = /^queued (evt_[0-9a-f]{32})\n$/.exec(result.stdout.toString());
    expect(printed).not.toBeNull();

    const attempts = (await receiver.waitFor(owner.path, 2, DELIVERY_WAIT_MS)).map(delivered);
    expect(attempts.map((attempt) => [attempt.eventId, attempt.payload.event])).toEqual([
      [printed?.[1], 'webhook.test'],
      [printed?.[1], 'webhook.test'],
    ]);
  });
});

test('without WEBHOOK_ALLOW_LOOPBACK a loopback webhook is refused with 400', async () => {
  // The shared server runs as AWS does: the flag unset.
  for (const webhook of [receiver.url('/refused'), 'https://127.0.0.1/hook', 'https://localhost/hook', 'https://[::1]/hook']) {
    const created = await api('POST', '/keys', { json: { webhook }, localAddress: freshClientAddress() });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: webhook.startsWith('http:') ? ERRORS.webhook : ERRORS.webhookHostNotPublic });
  }
});

async function findDeadLetter(eventId: string, timeoutMs: number): Promise<unknown> {
  const output = server.output();
  const endpoint = /SQS_ENDPOINT=(\S+)/.exec(output)?.[1];
  const queueUrl = /WEBHOOK_DEAD_LETTER_QUEUE_URL=(\S+)/.exec(output)?.[1];
  if (!endpoint || !queueUrl) throw new Error(`the server did not print its dead-letter queue:\n${output}`);
  const client = localSqsClient(endpoint);
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 1 }),
      );
      for (const message of Messages) {
        const job = JSON.parse(message.Body ?? '{}') as { eventId?: string };
        if (job.eventId === eventId) return job;
      }
    }
    throw new Error(`event ${eventId} did not reach the dead-letter queue within ${timeoutMs} ms`);
  } finally {
    client.destroy();
  }
}

describe('the receiver examples in docs/webhooks', () => {
  const EXAMPLES = path.resolve(__dirname, '../../docs/webhooks');
  /** Node runs the Node example (npm's Node 24 in npm test), python3 the Python one; Go is not on these machines. */
  const receivers = [
    ['Node', 'node', path.join(EXAMPLES, 'receiver.mjs'), { standardToo: false }],
    ['Python', 'python3', path.join(EXAMPLES, 'receiver.py'), { standardToo: true }],
  ] as const;

  /** Starts an example on a free port with `secret`; resolves once it says where it listens. */
  async function startExample(command: string, file: string, secret: string) {
    const child = spawn(command, [file], { env: { ...process.env, PORT: '0', WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(() => expect(output).toMatch(/listening on \d+/));
    const port = Number(/listening on (\d+)/.exec(output)?.[1]);
    return { url: `http://127.0.0.1:${port}/hook`, output: () => output, stop: () => child.kill() };
  }

  test.each(receivers)(
    'the %s receiver verifies real deliveries and refuses forged, stale and seconds-based ones',
    async (_name, command, file, { standardToo }) => {
      const { key, webhookSecret } = await createKey(undefined, baseUrl);
      const example = await startExample(command, file, webhookSecret);
      try {
        expect((await api('PATCH', '/keys', { key, baseUrl, json: { webhook: example.url } })).status).toBe(200);
        const { id } = await createSecret(key, { data: 'ZXhhbXBsZQ==', views: 2 }, baseUrl);
        expect((await claim(key, id)).status).toBe(200);
        expect((await claim(key, id)).status).toBe(200);
        await eventually(() => {
          const verified = example.output().match(/^verified \S+/gm) ?? [];
          expect(verified.sort()).toEqual(['verified secret.created', 'verified secret.expired', 'verified secret.viewed']);
        }, DELIVERY_WAIT_MS);

        const body = JSON.stringify({ event: 'secret.viewed', timestamp: Date.now(), data: { id } });
        const post = (signature: string) =>
          fetch(example.url, { method: 'POST', headers: { 'content-type': 'application/json', [WEBHOOK_HEADERS.signature]: signature }, body });
        expect((await post(signatureHeader(body, webhookSecret, Date.now()))).status).toBe(200);
        expect((await post(signatureHeader(body, `${webhookSecret}x`, Date.now()))).status).toBe(401);
        expect((await post(signatureHeader(body, webhookSecret, Date.now() - 301_000))).status).toBe(401);
        expect((await post(signatureHeader(body, webhookSecret, Math.floor(Date.now() / 1000)))).status).toBe(401);
        expect((await post('t=1,v1=zz')).status).toBe(401);
        if (!standardToo) return;
        // The Standard Webhooks headers alone: seconds, not milliseconds.
        const postStandard = (secret: string, seconds: number) =>
          fetch(example.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              [WEBHOOK_HEADERS.standardId]: 'evt_example',
              [WEBHOOK_HEADERS.standardTimestamp]: String(seconds),
              [WEBHOOK_HEADERS.standardSignature]: standardWebhookSignature('evt_example', body, secret, seconds),
            },
            body,
          });
        const nowSeconds = Math.floor(Date.now() / 1000);
        expect((await postStandard(webhookSecret, nowSeconds)).status).toBe(200);
        expect((await postStandard(`whsec_${'A'.repeat(32)}`, nowSeconds)).status).toBe(401);
        expect((await postStandard(webhookSecret, nowSeconds - 301)).status).toBe(401);
      } finally {
        example.stop();
      }
    },
  );
});
