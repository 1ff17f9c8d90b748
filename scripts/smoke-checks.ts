import { randomBytes } from 'node:crypto';
import type { TableGrant } from '#lambdas/definitions/access';
import { ERRORS } from '#contract/errors';
import { API_BASE_PATH, API_KEY_PREFIX, SECRET_ID_PATTERN } from '#contract/limits';
import { ROUTES, type RouteDefinition } from '#lambdas/definitions/routes';
import { PAGE_HEADERS } from '#contract/site';

/**
 * `npm run smoke`: HTTP-level checks of a deployment, local mode or a stack, through its site URL
 * as a user reaches it. It creates one API key and a few secrets, and removes all of them again
 * (claimed to their last view, or revoked; the key revoked last). Results name the check and say
 * what was wrong; they never carry a key, a webhook secret, a secret's id or data.
 */

export interface SmokeOptions {
  /** The deployment's SiteUrl (the pages; the API is below /api/v1). */
  siteUrl: string;
  /** A receiver of the user's to subscribe the key to; none: the key has no webhook. */
  webhook?: string;
  /** How long to keep the key after the webhook's events, so their deliveries go out (they read the key). */
  webhookWaitMs: number;
}

export interface CheckResult {
  check: string;
  ok: boolean;
  /** Why it failed, or what it saw when it passed. */
  detail: string;
}

/** The checks after key creation, in order; they all send the key, so each request is counted (COUNT_REQUEST). */
const AUTHENTICATED_CHECKS = [
  'inspect key',
  'update key',
  'small secret',
  'chunked secret',
  'claim race',
  'revoke secret',
  'webhook events',
  'revoke key',
];
/** Every check whose route counts something with UpdateItem and ReturnValues ALL_NEW. */
const COUNTING_CHECKS = new Set(['create key', ...AUTHENTICATED_CHECKS]);

/** Above what a secret's head holds, and more than one chunk: the secret is stored in chunks. */
export const CHUNKED_SECRET_BYTES = 400 * 1024;
const CLAIM_RACE_CLAIMERS = 8;

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

class CheckFailed extends Error {}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** What a failed call said, without anything the request or response carried but its status and error message. */
function describeReply(reply: Reply): string {
  const error = isRecord(reply.body) && typeof reply.body.error === 'string' ? `: ${reply.body.error}` : '';
  return `${reply.status}${error}`;
}

const routeNamed = (name: RouteDefinition['name']): RouteDefinition => {
  const route = ROUTES.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route ${name}`);
  return route;
};

const label = (route: RouteDefinition): string => `${route.method} ${API_BASE_PATH}${route.path}`;

/**
 * The grants of a route that IAM may refuse although they look right: an UpdateItem or PutItem
 * limited to some attributes (dynamodb:Attributes) that reads back ALL_NEW, which returns the others
 * too. IAM documents the condition key as the attributes a request names *or returns*.
 */
export function suspectGrants(route: RouteDefinition): string[] {
  const tables: [string, readonly TableGrant[] | undefined][] = [
    ['keys', route.access.keys],
    ['secrets', route.access.secrets],
  ];
  return tables.flatMap(([table, grants]) =>
    (grants ?? [])
      .filter((grant) => grant.attributes && grant.returnValues?.includes('ALL_NEW'))
      .flatMap((grant) => grant.actions.map((action) => `${action} on the ${table} table (ReturnValues ALL_NEW under dynamodb:Attributes)`)),
  );
}

/** A 500 names what only a deployment can settle: IAM refusing a conditioned grant. */
function failure(route: RouteDefinition, reply: Reply, expected: string): string {
  const suspects = reply.status === 500 ? suspectGrants(route) : [];
  const access =
    suspects.length > 0
      ? `; if the function's log says AccessDeniedException, IAM refused ${suspects.join(' or ')}: AccessDenied, see docs/deploy.md`
      : '';
  return `answered ${describeReply(reply)}, expected ${expected}${access}`;
}

/** The body of `reply` if it has `status` and a body `accepted` takes; otherwise the check fails. */
function expectReply(
  route: RouteDefinition,
  reply: Reply,
  [status, expected]: [number, string],
  accepted: (body: Record<string, unknown>) => boolean = () => true,
): Record<string, unknown> {
  if (reply.status === status && isRecord(reply.body) && accepted(reply.body)) return reply.body;
  throw new CheckFailed(`${label(route)} ${failure(route, reply, expected)}`);
}

export async function runSmoke(options: SmokeOptions): Promise<CheckResult[]> {
  const site = new URL(options.siteUrl);
  const origin = site.origin;
  const apiBase = `${origin}${API_BASE_PATH}`;
  const results: CheckResult[] = [];
  /** Whatever the checks made and must remove again. */
  let apiKey: string | undefined;
  const leftSecrets = new Set<string>();

  const call = async (method: string, path: string, init: { key?: string | null; json?: unknown } = {}): Promise<Reply> => {
    const key = init.key === undefined ? apiKey : init.key;
    const response = await fetch(`${apiBase}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const body: unknown = await response.json().catch(() => undefined);
    return { status: response.status, headers: response.headers, body };
  };

  const expectJsonContract = (reply: Reply, what: string): void => {
    const type = reply.headers.get('content-type') ?? '';
    if (!type.startsWith('application/json') || reply.body === undefined)
      throw new CheckFailed(`${what}: not a JSON response (content-type ${type || 'none'})`);
    if (reply.headers.get('cache-control') !== 'no-store') throw new CheckFailed(`${what}: cache-control is not no-store`);
    if (!reply.headers.get('x-request-id')) throw new CheckFailed(`${what}: no x-request-id`);
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
  const skip = (name: string, why: string): void => {
    results.push({ check: name, ok: false, detail: `not run: ${why}` });
  };

  /** Creates a secret of `bytes` random bytes; returns its id and data, and remembers it for clean-up. */
  const createSecret = async (bytes: number, views: number): Promise<{ id: string; data: string }> => {
    const route = routeNamed('secrets-create');
    const data = randomBytes(bytes).toString('base64');
    const reply = await call('POST', '/secrets', { json: { data, views, ttl: '1h' } });
    const body = expectReply(route, reply, [201, '201 with an id'], ({ id }) => typeof id === 'string');
    expectJsonContract(reply, label(route));
    const id = String(body.id);
    if (!SECRET_ID_PATTERN.test(id)) throw new CheckFailed(`${label(route)}: the id is not 22 URL-safe characters`);
    if (typeof body.url !== 'string' || !body.url.endsWith(`/${id}`)) throw new CheckFailed(`${label(route)}: url does not end in the id`);
    leftSecrets.add(id);
    return { id, data };
  };

  const claim = (id: string): Promise<Reply> => call('GET', `/secrets/${id}`);

  const claimExpecting = async (id: string, data: string, remaining: number): Promise<void> => {
    const route = routeNamed('secrets-claim');
    const body = expectReply(route, await claim(id), [200, '200']);
    if (body.data !== data) throw new CheckFailed(`${label(route)}: the data came back different`);
    if (body.remaining !== remaining) throw new CheckFailed(`${label(route)}: remaining is ${String(body.remaining)}, expected ${remaining}`);
    if (remaining === 0) leftSecrets.delete(id);
  };

  const expectGone = async (id: string): Promise<void> => {
    const reply = await claim(id);
    if (reply.status !== 404 || !isRecord(reply.body) || reply.body.error !== ERRORS.secretNotFound) {
      throw new CheckFailed(
        `${label(routeNamed('secrets-claim'))} of a used-up secret answered ${describeReply(reply)}, expected 404 ${ERRORS.secretNotFound}`,
      );
    }
  };

  // Unauthenticated: the service answers, the gateway answers, the pages carry their headers.
  const healthy = await check('health', async () => {
    const route = routeNamed('health');
    const reply = await call('GET', '/health', { key: null });
    expectReply(route, reply, [200, '200 healthy'], ({ status }) => status === 'healthy');
    expectJsonContract(reply, label(route));
    return `${label(route)} 200 healthy`;
  });
  await check('unknown route', async () => {
    const reply = await call('GET', '/no-such-route', { key: null });
    if (reply.status !== 404 || !isRecord(reply.body) || reply.body.error !== ERRORS.routeNotFound) {
      throw new CheckFailed(`GET ${API_BASE_PATH}/no-such-route answered ${describeReply(reply)}, expected 404 ${ERRORS.routeNotFound}`);
    }
    expectJsonContract(reply, 'the gateway’s 404');
    return '404 with the JSON error';
  });
  await check('no credentials', async () => {
    const reply = await call('GET', '/keys', { key: null });
    if (reply.status !== 401 || !isRecord(reply.body) || reply.body.error !== ERRORS.missingCredentials) {
      throw new CheckFailed(`GET ${API_BASE_PATH}/keys without a key answered ${describeReply(reply)}, expected 401`);
    }
    return '401 with the JSON error';
  });
  await check('pages', async () => {
    // The share page, and the reveal page as a link of a secret that does not exist opens it.
    for (const path of ['/', `/${'A'.repeat(22)}`]) {
      const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      const what = path === '/' ? 'the share page' : 'the reveal page';
      if (response.status !== 200) throw new CheckFailed(`${what} answered ${response.status}, expected 200`);
      if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) throw new CheckFailed(`${what} is not text/html`);
      for (const [header, value] of Object.entries(PAGE_HEADERS)) {
        if (response.headers.get(header) !== value)
          throw new CheckFailed(`${what}: ${header} is ${response.headers.get(header) ?? 'missing'}, expected ${value}`);
      }
    }
    return `share and reveal pages with ${Object.keys(PAGE_HEADERS).length} security headers`;
  });

  // Everything else needs the key this run creates.
  const keyCreated = await check('create key', async () => {
    const route = routeNamed('keys-create');
    const reply = await call('POST', '/keys', { key: null, ...(options.webhook ? { json: { webhook: options.webhook } } : {}) });
    const body = expectReply(route, reply, [201, '201 with a key'], ({ key }) => typeof key === 'string');
    expectJsonContract(reply, label(route));
    apiKey = String(body.key);
    if (!apiKey.startsWith(API_KEY_PREFIX)) throw new CheckFailed(`${label(route)}: the key does not start with ${API_KEY_PREFIX}`);
    if (typeof body.webhookSecret !== 'string') throw new CheckFailed(`${label(route)}: no webhookSecret`);
    return `${label(route)} 201${options.webhook ? ', subscribed to the given webhook' : ''}`;
  });

  const authenticated = AUTHENTICATED_CHECKS.filter((name) => name !== 'webhook events' || options.webhook);
  if (!keyCreated) {
    for (const name of authenticated) skip(name, 'no API key');
    return summarize(results, healthy);
  }

  try {
    await check('inspect key', async () => {
      const route = routeNamed('keys-get');
      const body = expectReply(route, await call('GET', '/keys'), [200, '200']);
      if (body.hint !== `${API_KEY_PREFIX}****${apiKey?.slice(-4) ?? ''}`) throw new CheckFailed(`${label(route)}: the hint is not the key's`);
      if ((body.webhook ?? null) !== (options.webhook ?? null)) throw new CheckFailed(`${label(route)}: the webhook is not the one given`);
      return `${label(route)} 200`;
    });
    await check('update key', async () => {
      const route = routeNamed('keys-update');
      // Sets what the key has: the webhook given, or none.
      const reply = await call('PATCH', '/keys', { json: { webhook: options.webhook ?? '' } });
      expectReply(route, reply, [200, '200 updated'], ({ updated }) => updated === true);
      return `${label(route)} 200`;
    });
    await check('small secret', async () => {
      const { id, data } = await createSecret(32, 2);
      await claimExpecting(id, data, 1);
      await claimExpecting(id, data, 0);
      await expectGone(id);
      return 'created, claimed twice (2 views), then gone';
    });
    await check('chunked secret', async () => {
      const { id, data } = await createSecret(CHUNKED_SECRET_BYTES, 1);
      await claimExpecting(id, data, 0);
      await expectGone(id);
      return `${CHUNKED_SECRET_BYTES / 1024} KB created, claimed byte for byte, then gone`;
    });
    await check('claim race', async () => {
      const { id } = await createSecret(16, 1);
      const replies = await Promise.all(Array.from({ length: CLAIM_RACE_CLAIMERS }, () => claim(id)));
      const statuses = replies.map((reply) => reply.status);
      const won = statuses.filter((status) => status === 200).length;
      if (won > 0) leftSecrets.delete(id);
      const others = statuses.filter((status) => status !== 200 && status !== 404);
      if (won !== 1 || others.length > 0) {
        const route = routeNamed('secrets-claim');
        const failed = replies.find((reply) => reply.status !== 200 && reply.status !== 404);
        const why = failed ? `; one ${failure(route, failed, '200 or 404')}` : '';
        throw new CheckFailed(
          `${CLAIM_RACE_CLAIMERS} claims of a 1-view secret at once: ${won} got it, expected exactly 1 (statuses ${statuses.sort().join(' ')})${why}`,
        );
      }
      return `${CLAIM_RACE_CLAIMERS} claims at once: 1 got the secret, ${CLAIM_RACE_CLAIMERS - 1} got 404`;
    });
    await check('revoke secret', async () => {
      const route = routeNamed('secrets-revoke');
      const { id } = await createSecret(16, 1);
      expectReply(route, await call('DELETE', `/secrets/${id}`), [200, '200 deleted'], ({ deleted }) => deleted === true);
      leftSecrets.delete(id);
      await expectGone(id);
      return `${label(route)} 200, then gone`;
    });
    if (options.webhook) {
      await check('webhook events', async () => {
        // Every check above made events for the key's webhook; their deliveries read the key, so it stays a while.
        await new Promise((resolve) => setTimeout(resolve, options.webhookWaitMs));
        return `the receiver should now hold POSTs signed with x-svc-signature (secret.created, secret.viewed, secret.expired), waited ${options.webhookWaitMs / 1000} s`;
      });
    }
  } finally {
    // Clean up whatever a failed check left: revoke its secrets, then the key.
    for (const id of leftSecrets) {
      await call('DELETE', `/secrets/${id}`).catch(() => undefined);
    }
    await check('revoke key', async () => {
      const route = routeNamed('keys-delete');
      const left = leftSecrets.size;
      const reply = await call('DELETE', '/keys');
      if (reply.status !== 200 || !isRecord(reply.body) || reply.body.deleted !== true) {
        throw new CheckFailed(`${label(route)} ${failure(route, reply, '200 deleted')}; the key this run created is still valid`);
      }
      const after = await call('GET', '/keys');
      if (after.status !== 401) throw new CheckFailed(`${label(route)}: the key still answers ${after.status} after its revocation`);
      return `${label(route)} 200, then 401${left > 0 ? ` (${left} secret(s) revoked after a failed check)` : ''}`;
    });
  }
  return summarize(results, healthy);
}

/**
 * The signature of IAM refusing the conditioned grants: the health check (a plain GetItem) passes,
 * while no route that counts a request (UpdateItem, ReturnValues ALL_NEW) does, and they answer 500.
 */
function summarize(results: CheckResult[], healthy: boolean): CheckResult[] {
  const counting = results.filter((result) => COUNTING_CHECKS.has(result.check));
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
