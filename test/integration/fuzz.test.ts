import fc from 'fast-check';
import { ERRORS } from '#contract/errors';
import { MAX_BODY_BYTES, RATE_LIMIT, SECRET_TTLS } from '#contract/limits';
import { ROUTES } from '#lambdas/definitions/routes';
import { STANDARD_HEADERS } from '#lambdas/http/headers';
import { api, base64Of, createKey, createSecret, freshClientAddress, type ApiResponse } from '../support/api';

/**
 * Every route over HTTP against local mode, with requests fast-check makes up: odd methods, paths
 * and ids, Authorization and Content-Type variants, bodies of the right shape with wrong types,
 * unknown fields, invalid JSON and, now and then, strings up to a little over the 5 MiB limit.
 * Whatever comes in, the answer is never a 5xx, always JSON with the standard headers, and the
 * service is healthy afterwards. `npm test` runs FUZZ_RUNS (2,000 by default), `npm run fuzz`
 * 10,000; the seed is printed, and FUZZ_SEED=<seed> replays a run.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** A key is swapped for a fresh one before the per-key rate limit would answer every request 429. */
const REQUESTS_PER_KEY = RATE_LIMIT.requests - 10;

/** Stands for the current valid API key; replaced when the request is sent. */
const VALID_KEY = '<valid key>';
/** Stands for a secret that exists; replaced when the request is sent. */
const LIVE_SECRET = '<live secret>';

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

const junk = fc.string({ unit: 'binary', maxLength: 40 });
const printable = fc.string({ unit: fc.constantFrom(..."abcXYZ019-_.~!$&'()*+,;=:@%/?#[]".split('')), maxLength: 40 });

const secretIdArb = fc.oneof(
  fc.constant(LIVE_SECRET),
  fc.base64String({ minLength: 20, maxLength: 24 }).map((text) => text.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')),
  junk.map(encodeURIComponent),
  printable,
  fc.constantFrom('%', '%zz', '%00', '%2F..%2F', '..', '.', '%E2%82', 'a'.repeat(2_000), '%F0%9F%92%A9'),
);

const pathArb = fc.oneof(
  fc.constantFrom(...ROUTES.map((route) => route.path)),
  fc.tuple(fc.constantFrom('/secrets/', '/keys/', '/health/'), secretIdArb).map(([prefix, id]) => prefix + id),
  fc.tuple(fc.constantFrom(...ROUTES.map((route) => route.path)), printable).map(([route, query]) => `${route}?${query}`),
  printable.map((segment) => `/${segment}`),
  fc.constantFrom('', '/', '//', '/secrets', '/secrets/', '/KEYS', '/health%20'),
);

const authorizationArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(`Bearer ${VALID_KEY}`) },
  { weight: 2, arbitrary: fc.constantFrom(`bearer ${VALID_KEY}`, `Bearer  ${VALID_KEY}`, `Basic ${VALID_KEY}`, VALID_KEY, 'Bearer', 'Bearer ', '') },
  { weight: 1, arbitrary: printable.map((text) => `Bearer ${text}`) },
  { weight: 1, arbitrary: fc.constant(`Bearer ${'k'.repeat(10_000)}`) },
);

const contentTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
);

const headersArb = fc
  .record(
    { authorization: fc.option(authorizationArb, { freq: 6 }), 'content-type': contentTypeArb, 'x-forwarded-for': fc.ipV4() },
    { requiredKeys: ['authorization'] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => typeof value === 'string')) as Record<string, string>);

/** Anything JSON can carry: the wrong type for every field, sometimes the right one. */
const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Made once: building 5 MiB for each case would cost more than sending it. */
const HUGE_STRINGS = [MAX_BODY_BYTES - 64, MAX_BODY_BYTES + 1024].map((length) => base64Of(Math.floor((length * 3) / 4)));
const hugeString = fc.constantFrom(...HUGE_STRINGS);

const secretFieldsArb = fc.record(
  {
    data: fc.oneof(anyJson, fc.base64String({ maxLength: 200 }), fc.constant('not base64!')),
    views: fc.oneof(anyJson, fc.integer({ min: -2, max: 8 }), fc.double()),
    ttl: fc.oneof(anyJson, fc.constantFrom(...Object.keys(SECRET_TTLS))),
    type: fc.oneof(anyJson, fc.constantFrom('text', 'file')),
    filename: fc.oneof(anyJson, junk),
    mimetype: fc.oneof(anyJson, fc.constantFrom('text/plain', 'a/b', 'nope')),
    webhook: fc.oneof(anyJson, fc.webUrl(), fc.constantFrom('http://127.0.0.1/hook', 'https://[::1]/', 'https://example.com/ hook')),
  },
  { requiredKeys: [] },
);

const bodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 20, arbitrary: fc.constant(undefined) },
  {
    weight: 60,
    arbitrary: fc
      .tuple(secretFieldsArb, fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 3 }))
      .map(([known, unknown]) => JSON.stringify({ ...unknown, ...known })),
  },
  { weight: 20, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
  { weight: 20, arbitrary: fc.oneof(junk, fc.constantFrom('{', '{"data":', '[]]', '{"data":"YQ=="', 'null', '\u0000', '[['.repeat(5_000))) },
  // About one case in a hundred: a huge body costs a hundred small ones.
  {
    weight: 1,
    arbitrary: fc
      .tuple(hugeString, fc.constantFrom('data', 'filename', 'webhook', 'unknown'))
      .map(([huge, field]) => JSON.stringify({ [field]: huge })),
  },
);

/** Mostly a route's own method and path (an id for `{id}`), so that most requests reach a handler. */
const methodAndPathArb = fc.oneof(
  {
    weight: 7,
    arbitrary: fc
      .tuple(fc.constantFrom(...ROUTES), secretIdArb)
      .map(([route, id]) => ({ method: route.method, path: route.path.replace('{id}', id) })),
  },
  { weight: 3, arbitrary: fc.record({ method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'), path: pathArb }) },
);

const requestArb: fc.Arbitrary<FuzzRequest> = fc
  .tuple(methodAndPathArb, headersArb, bodyArb)
  .map(([{ method, path }, headers, body]) => ({ method, path, headers, body }));

/** A key good for a few more requests, and a secret that exists; both replaced as they run out. */
class Credentials {
  private key = '';
  private uses = REQUESTS_PER_KEY;
  private secret = '';

  async keyForNextRequest(): Promise<string> {
    if (this.uses >= REQUESTS_PER_KEY) {
      this.key = (await createKey()).key;
      this.secret = (await createSecret(this.key, { data: 'ZnV6eg==', views: 5 })).id;
      this.uses = 2;
    }
    this.uses += 1;
    return this.key;
  }

  liveSecret(): string {
    return this.secret;
  }

  /** After a request that may have deleted the key. */
  forget(): void {
    this.uses = REQUESTS_PER_KEY;
  }
}

function expectContractAnswer(response: ApiResponse<unknown>, request: FuzzRequest): void {
  const shown = `${request.method} ${request.path.slice(0, 200)} → ${response.status} ${response.raw.slice(0, 200)}`;
  // The one 5xx the contract has: DynamoDB did not answer within the request's budget (on a loaded
  // machine, DynamoDB Local). It says so, with retry-after; any other 5xx is a bug.
  const storeUnavailable =
    response.status === 503 &&
    (response.body as { error?: unknown } | undefined)?.error === ERRORS.storeUnavailable &&
    /^\d+$/.test(response.headers['retry-after'] ?? '');
  if (response.status >= 500 && !storeUnavailable) throw new Error(`5xx: ${shown}`);
  for (const [name, value] of Object.entries(STANDARD_HEADERS)) {
    if (!response.headers[name]?.startsWith(value)) throw new Error(`${name} is ${response.headers[name]}: ${shown}`);
  }
  if (!response.headers['x-request-id']) throw new Error(`no x-request-id: ${shown}`);
  if (response.body === undefined) throw new Error(`not JSON: ${shown}`);
}

test(
  `${RUNS} made-up requests: never a 5xx but the store's 503, always JSON with the standard headers, healthy after`,
  async () => {
    console.log(`fuzz: ${RUNS} runs, seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
    const credentials = new Credentials();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const key = await credentials.keyForNextRequest();
        const resolve = (text: string): string => text.replaceAll(VALID_KEY, key).replaceAll(LIVE_SECRET, credentials.liveSecret());
        const response = await api<unknown>(request.method, resolve(request.path), {
          headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, resolve(value)])),
          ...(request.body === undefined ? {} : { rawBody: request.body }),
          localAddress: freshClientAddress(),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (request.method === 'DELETE' && request.path.startsWith('/keys')) credentials.forget();
        expectContractAnswer(response, request);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`fuzz: answers by status ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    const health = await api('GET', '/health');
    expect(health.status).toBe(200);
  },
  60_000 + RUNS * 100,
);
