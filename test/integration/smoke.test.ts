import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ERRORS } from '#contract/errors';
import { API_BASE_PATH } from '#contract/limits';
import { testEnv } from '../support/environment';
import { startLocalServer } from '../support/local-server';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { finishedRun, type FinishedRun } from './support/finished-run';

/**
 * `npm run smoke` as CI runs it after a deploy: against local mode it passes, and against a broken
 * deployment it fails with one line per failed check, naming the check.
 */

const ROOT = path.resolve(__dirname, '../..');

const smoke = (...args: string[]): Promise<FinishedRun> =>
  finishedRun(spawn('npm', ['run', '--silent', 'smoke', '--', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));

/** A deployment whose every API answer is `answer(path)`; its pages are missing. */
async function brokenTarget(
  answer: (path: string, authorized: boolean, method: string) => { status: number; body: unknown },
): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const { status, body } = answer(request.url ?? '/', request.headers.authorization !== undefined, request.method ?? 'GET');
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': 'r' });
    response.end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const failLines = (run: FinishedRun): string[] => run.stderr.split('\n').filter((line) => line.startsWith('FAIL'));

test('passes against local mode, printing no key, secret or id', async () => {
  const origin = new URL(testEnv('baseUrl')).origin;
  const run = await smoke(origin);
  expect({ code: run.code, failures: failLines(run) }).toEqual({ code: 0, failures: [] });
  expect(run.stdout).toMatch(/^ok {4}claim race: 8 claims at once: 1 got the secret, 7 got 404$/m);
  expect(run.stdout).toMatch(/^ok {4}chunked secret: /m);
  expect(run.stdout).toMatch(/^ok {4}revoke key: /m);
  expect(run.stdout).toMatch(/^all \d+ checks passed$/m);
  // A key, a webhook secret or a secret's id (22 URL-safe characters) would show here.
  expect(run.stdout + run.stderr).not.toMatch(/svc_[A-Za-z0-9]|whsec_|[A-Za-z0-9_-]{22}/);
});

test("with --webhook, the receiver named gets the checks' events, each signed", async () => {
  // A server of its own: the shared one refuses loopback webhooks, as a deployment does.
  const receiver = await startWebhookReceiver();
  const server = await startLocalServer({ WEBHOOK_ALLOW_LOOPBACK: '1' });
  try {
    const run = await smoke(new URL(server.baseUrl).origin, '--webhook', receiver.url('/smoke'), '--webhook-wait', '10');
    expect({ code: run.code, failures: failLines(run) }).toEqual({ code: 0, failures: [] });
    const deliveries = receiver.received('/smoke');
    const events = new Set(deliveries.map((delivery) => (JSON.parse(delivery.body) as { event: string }).event));
    expect([...events].sort()).toEqual(expect.arrayContaining(['secret.created', 'secret.expired', 'secret.viewed']));
    expect(deliveries.every((delivery) => /^t=\d+,v1=[0-9a-f]{64}$/.test(String(delivery.headers['x-svc-signature'])))).toBe(true);
  } finally {
    await server.stop();
    await receiver.stop();
  }
});

test('a deployment answering 500 everywhere fails with one line per check, naming it', async () => {
  const { origin, server } = await brokenTarget(() => ({ status: 500, body: { error: ERRORS.internal } }));
  try {
    const run = await smoke(origin);
    expect(run.code).toBe(1);
    const lines = failLines(run);
    expect(lines).toEqual(
      expect.arrayContaining([
        `FAIL  health: GET ${API_BASE_PATH}/health answered 500: ${ERRORS.internal}, expected 200 healthy`,
        expect.stringMatching(/^FAIL {2}pages: the share page answered 500, expected 200$/),
        expect.stringMatching(new RegExp(`^FAIL {2}create key: POST ${API_BASE_PATH}/keys answered 500`)),
        'FAIL  inspect key: not run: no API key',
      ]),
    );
    // Health fails too: that is an outage, not the signature of IAM refusing a grant.
    expect(lines.some((line) => line.startsWith('FAIL  AccessDenied'))).toBe(false);
    expect(run.stdout).toMatch(/^\d+ of \d+ checks failed$/m);
  } finally {
    server.close();
  }
});

test('500 on the routes that count requests while health works is named as IAM AccessDenied', async () => {
  // As such a stack answers: the gateway and the key check work, every function that counts fails.
  const { origin, server } = await brokenTarget((requestPath, authorized, method) => {
    if (requestPath === `${API_BASE_PATH}/health`) return { status: 200, body: { status: 'healthy' } };
    if (requestPath === `${API_BASE_PATH}/no-such-route`) return { status: 404, body: { error: ERRORS.routeNotFound } };
    if (requestPath === `${API_BASE_PATH}/keys` && method === 'GET' && !authorized)
      return { status: 401, body: { error: ERRORS.missingCredentials } };
    return { status: 500, body: { error: ERRORS.internal } };
  });
  try {
    const run = await smoke(origin);
    expect(run.code).toBe(1);
    const lines = failLines(run);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^FAIL {2}create key: POST ${API_BASE_PATH}/keys answered 500.*IAM refused dynamodb:UpdateItem on the keys table .*AccessDenied`),
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^FAIL {2}AccessDenied: .*docs\/deploy\.md/));
  } finally {
    server.close();
  }
});
