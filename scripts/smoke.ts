import { randomBytes } from 'node:crypto';
import type { TableGrant } from '#lambdas/definitions/access';
import { ERRORS } from '#contract/errors';
import { API_BASE_PATH, API_KEY_PREFIX, SECRET_ID_PATTERN } from '#contract/limits';
import { routeTemplate, type RouteName } from '#contract/routes';
import { PAGE_HEADERS } from '#contract/site';
import { ROUTES, type RouteDefinition } from '#lambdas/definitions/routes';
import { exitWithUsage, parseCommandLine } from './command-line';

const USAGE = `Usage: npm run smoke -- <SiteUrl> [--webhook URL] [--webhook-wait SECONDS]

Checks a deployment over HTTP as a user reaches it: health, the gateway's 404 and 401, the pages
and their security headers, then with one API key of its own: inspect and update the key, a small
secret and a chunked one (400 KB) round trip, a claim race (8 claims of a 1-view secret: exactly
one wins), a revoked secret, and finally the key revoked. Everything it creates it removes again.
It prints one line per check, never a key, secret, id or data; a failed check's line starts with
FAIL and names the check, and the exit code is 1.

  <SiteUrl>               the stack's SiteUrl output, or local mode's http://localhost:3000
  --webhook URL           subscribe the key to this receiver of yours: the checks' events go there
  --webhook-wait SECONDS  with --webhook, how long to keep the key before revoking it, so that the
                          deliveries (which read the key) go out (default 20)
  -h, --help              this text`;

/** Above what a secret's head holds, and more than one chunk: the secret is stored in chunks. */
const CHUNKED_SECRET_BYTES = 400 * 1024;
const CLAIM_RACE_CLAIMERS = 8;

/** An answer; `what` names the call for messages (the route's template, or method and path), `route` gives its grants. */
type Reply = { status: number; headers: Headers; body?: Record<string, unknown>; what: string; route?: RouteDefinition };

/** `detail`: why the check failed, or what it saw when it passed. */
type CheckResult = { check: string; ok: boolean; detail: string };

class CheckFailed extends Error {}

/**
 * The grants of a route that IAM may refuse although they look right: an UpdateItem or PutItem
 * limited to some attributes (dynamodb:Attributes) that reads back ALL_NEW, which returns the others
 * too. IAM documents the condition key as the attributes a request names *or returns*.
 */
function suspectGrants(route: RouteDefinition): string[] {
  return Object.entries(route.access).flatMap(([table, grants]: [string, readonly TableGrant[]]) =>
    grants
      .filter((grant) => grant.attributes && grant.returnValues?.includes('ALL_NEW'))
      .flatMap((grant) => grant.actions.map((action) => `${action} on the ${table} table (ReturnValues ALL_NEW under dynamodb:Attributes)`)),
  );
}

/** What a failed call said (its status and error message, nothing else it carried); a 500 names IAM's refusal of a conditioned grant. */
function failure(what: string, reply: Reply, expected: string): string {
  const error = typeof reply.body?.error === 'string' ? `: ${reply.body.error}` : '';
  const suspects = reply.status === 500 && reply.route ? suspectGrants(reply.route) : [];
  const access =
    suspects.length > 0
      ? `; if the function's log says AccessDeniedException, IAM refused ${suspects.join(' or ')}: AccessDenied, see docs/deploy.md`
      : '';
  return `${what} answered ${reply.status}${error}, expected ${expected}${access}`;
}

/** The body of `reply` if it has the status `expected` starts with and a body `accepted` takes; otherwise the check fails. */
function expectReply(reply: Reply, expected: string, accepted: (body: Record<string, unknown>) => boolean = () => true, what = reply.what) {
  if (reply.status === parseInt(expected, 10) && reply.body && accepted(reply.body)) return reply.body;
  throw new CheckFailed(failure(what, reply, expected));
}

/** JSON, not cached, with a request id: what every API answer carries. */
function expectJsonContract(reply: Reply, what = reply.what): void {
  const type = reply.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json') || !reply.body) throw new CheckFailed(`${what}: not a JSON response (content-type ${type || 'none'})`);
  if (reply.headers.get('cache-control') !== 'no-store') throw new CheckFailed(`${what}: cache-control is not no-store`);
  if (!reply.headers.get('x-request-id')) throw new CheckFailed(`${what}: no x-request-id`);
}

/** Runs the checks through the site URL; what they create is claimed to its last view or revoked, the key last. */
async function runSmoke(siteUrl: string, webhook: string | undefined, webhookWaitMs: number): Promise<CheckResult[]> {
  const origin = new URL(siteUrl).origin;
  const results: CheckResult[] = [];
  /** Whatever the checks made and must remove again. */
  let apiKey: string | undefined;
  const leftSecrets = new Set<string>();

  const request = async (method: string, path: string, init: { key?: string | null; json?: unknown } = {}): Promise<Reply> => {
    const key = init.key === undefined ? apiKey : init.key;
    const response = await fetch(`${origin}${API_BASE_PATH}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const body: unknown = await response.json().catch(() => undefined);
    return {
      status: response.status,
      headers: response.headers,
      what: `${method} ${API_BASE_PATH}${path}`,
      ...(typeof body === 'object' && body !== null ? { body: body as Record<string, unknown> } : {}),
    };
  };
  const call = async (name: RouteName, init: { id?: string; key?: string | null; json?: unknown } = {}): Promise<Reply> => {
    const route = ROUTES.find((candidate) => candidate.name === name) as RouteDefinition;
    return { ...(await request(route.method, route.path.replace('{id}', init.id ?? ''), init)), what: routeTemplate(route), route };
  };

  const check = async (name: string, run: () => Promise<string>): Promise<boolean> => {
    try {
      results.push({ check: name, ok: true, detail: await run() });
      return true;
    } catch (error) {
      const detail = error instanceof CheckFailed ? error.message : `could not complete: ${error instanceof Error ? error.message : String(error)}`;
      results.push({ check: name, ok: false, detail });
      return false;
    }
  };

  /** Creates a secret of `bytes` random bytes; returns its id and data, and remembers it for clean-up. */
  const createSecret = async (bytes: number, views: number): Promise<{ id: string; data: string }> => {
    const data = randomBytes(bytes).toString('base64');
    const reply = await call('secrets-create', { json: { data, views, ttl: '1h' } });
    const { id, url } = expectReply(reply, '201 with an id', (body) => typeof body.id === 'string');
    expectJsonContract(reply);
    if (!SECRET_ID_PATTERN.test(String(id))) throw new CheckFailed(`${reply.what}: the id is not 22 URL-safe characters`);
    if (typeof url !== 'string' || !url.endsWith(`/${String(id)}`)) throw new CheckFailed(`${reply.what}: url does not end in the id`);
    leftSecrets.add(String(id));
    return { id: String(id), data };
  };
  const claimExpecting = async (id: string, data: string, remaining: number): Promise<void> => {
    const reply = await call('secrets-claim', { id });
    const body = expectReply(reply, '200');
    if (body.data !== data) throw new CheckFailed(`${reply.what}: the data came back different`);
    if (body.remaining !== remaining) throw new CheckFailed(`${reply.what}: remaining is ${String(body.remaining)}, expected ${remaining}`);
    if (remaining === 0) leftSecrets.delete(id);
  };
  const expectGone = async (id: string): Promise<void> => {
    const reply = await call('secrets-claim', { id });
    expectReply(reply, `404 ${ERRORS.secretNotFound}`, (body) => body.error === ERRORS.secretNotFound, `${reply.what} of a used-up secret`);
  };

  // Unauthenticated: the service answers, the gateway answers, the pages carry their headers.
  const healthy = await check('health', async () => {
    const reply = await call('health', { key: null });
    expectReply(reply, '200 healthy', (body) => body.status === 'healthy');
    expectJsonContract(reply);
    return `${reply.what} 200 healthy`;
  });
  await check('unknown route', async () => {
    const reply = await request('GET', '/no-such-route', { key: null });
    expectReply(reply, `404 ${ERRORS.routeNotFound}`, (body) => body.error === ERRORS.routeNotFound);
    expectJsonContract(reply, 'the gateway’s 404');
    return '404 with the JSON error';
  });
  await check('no credentials', async () => {
    const reply = await request('GET', '/keys', { key: null });
    expectReply(reply, '401', (body) => body.error === ERRORS.missingCredentials, `GET ${API_BASE_PATH}/keys without a key`);
    return '401 with the JSON error';
  });
  await check('pages', async () => {
    // The share page, and the reveal page as a link of a secret that does not exist opens it.
    for (const [path, what] of [
      ['/', 'the share page'],
      [`/${'A'.repeat(22)}`, 'the reveal page'],
    ]) {
      const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      if (response.status !== 200) throw new CheckFailed(`${what} answered ${response.status}, expected 200`);
      if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) throw new CheckFailed(`${what} is not text/html`);
      for (const [header, value] of Object.entries(PAGE_HEADERS)) {
        const sent = response.headers.get(header);
        if (sent !== value) throw new CheckFailed(`${what}: ${header} is ${sent ?? 'missing'}, expected ${value}`);
      }
    }
    return `share and reveal pages with ${Object.keys(PAGE_HEADERS).length} security headers`;
  });

  // Everything else needs the key this run creates; each of these requests is counted (COUNT_REQUEST).
  const keyCreated = await check('create key', async () => {
    const reply = await call('keys-create', { key: null, ...(webhook ? { json: { webhook } } : {}) });
    const body = expectReply(reply, '201 with a key', ({ key }) => typeof key === 'string');
    expectJsonContract(reply);
    apiKey = String(body.key);
    if (!apiKey.startsWith(API_KEY_PREFIX)) throw new CheckFailed(`${reply.what}: the key does not start with ${API_KEY_PREFIX}`);
    if (typeof body.webhookSecret !== 'string') throw new CheckFailed(`${reply.what}: no webhookSecret`);
    return `${reply.what} 201${webhook ? ', subscribed to the given webhook' : ''}`;
  });

  const checks: Record<string, () => Promise<string>> = {
    'inspect key': async () => {
      const reply = await call('keys-get');
      const body = expectReply(reply, '200');
      if (body.hint !== `${API_KEY_PREFIX}****${apiKey?.slice(-4) ?? ''}`) throw new CheckFailed(`${reply.what}: the hint is not the key's`);
      if ((body.webhook ?? null) !== (webhook ?? null)) throw new CheckFailed(`${reply.what}: the webhook is not the one given`);
      return `${reply.what} 200`;
    },
    'update key': async () => {
      // Sets what the key has: the webhook given, or none.
      const reply = await call('keys-update', { json: { webhook: webhook ?? '' } });
      expectReply(reply, '200 updated', ({ updated }) => updated === true);
      return `${reply.what} 200`;
    },
    'small secret': async () => {
      const { id, data } = await createSecret(32, 2);
      await claimExpecting(id, data, 1);
      await claimExpecting(id, data, 0);
      await expectGone(id);
      return 'created, claimed twice (2 views), then gone';
    },
    'chunked secret': async () => {
      const { id, data } = await createSecret(CHUNKED_SECRET_BYTES, 1);
      await claimExpecting(id, data, 0);
      await expectGone(id);
      return `${CHUNKED_SECRET_BYTES / 1024} KB created, claimed byte for byte, then gone`;
    },
    'claim race': async () => {
      const { id } = await createSecret(16, 1);
      const replies = await Promise.all(Array.from({ length: CLAIM_RACE_CLAIMERS }, () => call('secrets-claim', { id })));
      const statuses = replies.map((reply) => reply.status);
      const won = statuses.filter((status) => status === 200).length;
      if (won > 0) leftSecrets.delete(id);
      const other = replies.find((reply) => reply.status !== 200 && reply.status !== 404);
      if (won !== 1 || other) {
        const why = other ? `; one ${failure(other.what, other, '200 or 404')}` : '';
        throw new CheckFailed(
          `${CLAIM_RACE_CLAIMERS} claims of a 1-view secret at once: ${won} got it, expected exactly 1 (statuses ${statuses.sort().join(' ')})${why}`,
        );
      }
      return `${CLAIM_RACE_CLAIMERS} claims at once: 1 got the secret, ${CLAIM_RACE_CLAIMERS - 1} got 404`;
    },
    'revoke secret': async () => {
      const { id } = await createSecret(16, 1);
      const reply = await call('secrets-revoke', { id });
      expectReply(reply, '200 deleted', ({ deleted }) => deleted === true);
      leftSecrets.delete(id);
      await expectGone(id);
      return `${reply.what} 200, then gone`;
    },
  };
  if (webhook) {
    checks['webhook events'] = async () => {
      // Every check above made events for the key's webhook; their deliveries read the key, so it stays a while.
      await new Promise((resolve) => setTimeout(resolve, webhookWaitMs));
      return `the receiver should now hold POSTs signed with x-svc-signature (secret.created, secret.viewed, secret.expired), waited ${webhookWaitMs / 1000} s`;
    };
  }
  const revokeKey = async (): Promise<string> => {
    const left = leftSecrets.size;
    const reply = await call('keys-delete');
    if (reply.status !== 200 || reply.body?.deleted !== true) {
      throw new CheckFailed(`${failure(reply.what, reply, '200 deleted')}; the key this run created is still valid`);
    }
    const after = await call('keys-get');
    if (after.status !== 401) throw new CheckFailed(`${reply.what}: the key still answers ${after.status} after its revocation`);
    return `${reply.what} 200, then 401${left > 0 ? ` (${left} secret(s) revoked after a failed check)` : ''}`;
  };

  if (!keyCreated) {
    for (const name of [...Object.keys(checks), 'revoke key']) results.push({ check: name, ok: false, detail: 'not run: no API key' });
    return withAccessDenied(results, healthy);
  }
  try {
    for (const [name, run] of Object.entries(checks)) await check(name, run);
  } finally {
    // Clean up whatever a failed check left: revoke its secrets, then the key.
    for (const id of leftSecrets) await call('secrets-revoke', { id }).catch(() => undefined);
    await check('revoke key', revokeKey);
  }
  return withAccessDenied(results, healthy);
}

/**
 * The signature of IAM refusing the conditioned grants: the health check (a plain GetItem) passes,
 * while no check from the key's creation on, whose routes count a request (UpdateItem, ReturnValues
 * ALL_NEW), does, and they answer 500.
 */
function withAccessDenied(results: CheckResult[], healthy: boolean): CheckResult[] {
  const counting = results.slice(results.findIndex((result) => result.check === 'create key'));
  const suspected = counting.some((result) => !result.ok && result.detail.includes('AccessDenied'));
  if (healthy && suspected && counting.every((result) => !result.ok)) {
    results.push({
      check: 'AccessDenied',
      ok: false,
      detail:
        'GET /health works, but no route that counts a request does: they answer 500 on a grant limited by dynamodb:Attributes ' +
        'that reads back ALL_NEW. IAM is most likely refusing those grants (AccessDenied); docs/deploy.md says what to do',
    });
  }
  return results;
}

async function main(): Promise<void> {
  const parsed = parseCommandLine(USAGE, { webhook: { type: 'string' }, 'webhook-wait': { type: 'string' } }, 1);
  if (!parsed) return;
  const { values, positionals } = parsed;
  const [siteUrl] = positionals;
  if (!siteUrl) exitWithUsage(USAGE, 'no SiteUrl given');
  if (!URL.canParse(siteUrl) || !/^https?:$/.test(new URL(siteUrl).protocol)) exitWithUsage(USAGE, `not an http(s) URL: ${siteUrl}`);
  const waitS = Number(values['webhook-wait'] ?? 20);
  if (!Number.isFinite(waitS) || waitS < 0) exitWithUsage(USAGE, `--webhook-wait must be a number of seconds, got ${values['webhook-wait']}`);

  const results = await runSmoke(siteUrl, values.webhook, waitS * 1000);
  for (const result of results) {
    if (result.ok) console.log(`ok    ${result.check}: ${result.detail}`);
    else console.error(`FAIL  ${result.check}: ${result.detail}`);
  }
  const failed = results.filter((result) => !result.ok).length;
  console.log(failed === 0 ? `all ${results.length} checks passed` : `${failed} of ${results.length} checks failed`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`FAIL  smoke: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
