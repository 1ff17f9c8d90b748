import { randomBytes, randomInt } from 'node:crypto';
import * as path from 'node:path';
import { SECRET_DEFAULTS, SECRET_ID_BYTES, SECRET_TTLS } from '#contract/limits';
import { ROUTES, routeEntry, type RouteName } from '#lambdas/definitions/routes';
import { PIPELINE_ENTRIES } from '#lambdas/definitions/webhooks';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { sqsEvent, sqsRecord } from '#test/unit/support/sqs-records';
import { head, streamRecord } from '#test/unit/support/stream-records';
import { REQUEST_PUBLIC_KEY, SECRET_DATA, freshKey, freshRequest, freshSecret, routeEvent, type FreshKey, type RouteRequest } from './fixtures';
import type { FloorEvent } from './cold-start/floor/calls';
import type { BenchEnvironment } from './environment';

/** Every function of the stack, each with a typical request that succeeds: what the warm and the cold measurements send. */
export interface BenchFunction {
  /** What its house floor (HOUSE_FLOORS) is handed to make the same SDK calls as it made: its body, or a batch of one record. */
  floorEvent(commands: readonly string[]): Promise<unknown>;
  name: string;
  /** Handler module, relative to the repository root. */
  entry: string;
  /** A route answers API Gateway; a pipeline function takes a batch, inside Powertools' batch processor. */
  kind: 'route' | 'pipeline';
  /** Writes fresh fixtures and returns the event of one request. */
  nextEvent(): Promise<unknown>;
  /** Throws unless the request just sent had its effect (a 2xx alone can hide a skipped step). */
  confirm(): Promise<void>;
}

/** Each kind of function's house floor: the same SDK calls inside middy, Powertools and zod (bench/cold-start/floor/). */
const floor = (file: string): string => path.join(__dirname, 'cold-start/floor', file);
export const HOUSE_FLOORS = { route: floor('house-route.ts'), pipeline: floor('house-batch.ts') } as const;

const JSON_CONTENT = { 'Content-Type': 'application/json' };
const bearer = (key: FreshKey): Record<string, string> => ({ Authorization: `Bearer ${key.key}` });
const withBody = async (body: object, id?: string): Promise<RouteRequest> => ({
  headers: { ...bearer(await freshKey()), ...JSON_CONTENT },
  body: JSON.stringify(body),
  ...(id === undefined ? {} : { pathParameters: { id } }),
});

/** Each key creation from an address of its own, clear of the per-address hourly limit (198.18.0.0/15). */
const freshSourceIp = (): string => `198.${18 + randomInt(2)}.${randomInt(256)}.${1 + randomInt(254)}`;

async function ownSecret(): Promise<RouteRequest> {
  const key = await freshKey();
  return { headers: bearer(key), pathParameters: { id: await freshSecret(key) } };
}

/** A typical successful request of each route; a route added to the table fails the type check here until it has one. */
const ROUTE_REQUESTS: Readonly<Record<RouteName, () => Promise<RouteRequest>>> = {
  health: () => Promise.resolve({}),
  'keys-create': () => Promise.resolve({ headers: JSON_CONTENT, body: '{}', sourceIp: freshSourceIp() }),
  'keys-get': async () => ({ headers: bearer(await freshKey()) }),
  'keys-update': () => withBody({ webhook: 'https://hooks.bench.example/bench' }),
  'keys-webhook-test': async () => ({ headers: bearer(await freshKey('https://hooks.bench.example/bench')) }),
  'keys-delete': async () => ({ headers: bearer(await freshKey()) }),
  'secrets-create': () => withBody({ data: SECRET_DATA }),
  'secrets-claim': ownSecret,
  'secrets-revoke': ownSecret,
  'secrets-status': ownSecret,
  'requests-create': () => withBody({ publicKey: REQUEST_PUBLIC_KEY }),
  'requests-get': async () => ({ headers: bearer(await freshKey()), pathParameters: { id: await freshRequest(await freshKey()) } }),
  'requests-fulfil': async () => withBody({ data: SECRET_DATA }, await freshRequest(await freshKey())),
  'requests-status': async () => {
    const requester = await freshKey();
    return { headers: bearer(requester), pathParameters: { id: await freshRequest(requester) } };
  },
};

const routeFunctions = (environment: BenchEnvironment): BenchFunction[] =>
  ROUTES.map((route) => ({
    name: route.name,
    entry: routeEntry(route),
    kind: 'route',
    nextEvent: async () => routeEvent(route, await ROUTE_REQUESTS[route.name]()),
    floorEvent: async (commands) => {
      const { body } = await ROUTE_REQUESTS[route.name]();
      return { headers: JSON_CONTENT, body: body ?? null, floor: { commands, sqsQueueUrl: environment.floorQueueUrl } satisfies FloorEvent };
    },
    confirm: () => Promise.resolve(),
  }));

/** A batch of one record for a pipeline function's house floor. */
const batchFloorEvent =
  (environment: BenchEnvironment, postUrl?: string) =>
  (commands: readonly string[]): Promise<unknown> => {
    const floor: FloorEvent = { commands, sqsQueueUrl: environment.floorQueueUrl, ...(postUrl === undefined ? {} : { postUrl }) };
    return Promise.resolve({ floor, ...sqsEvent(sqsRecord('{}', 1)) });
  };

/** A secret's creation, owned by a key with a webhook: the fan-out reads the key and queues one job. */
function fanOut(environment: BenchEnvironment): BenchFunction {
  // Counted from before each request: an attempt that failed may or may not have queued its job.
  let queuedBefore = 0;
  return {
    name: path.basename(PIPELINE_ENTRIES.fanOut, '.ts'),
    entry: PIPELINE_ENTRIES.fanOut,
    kind: 'pipeline',
    floorEvent: batchFloorEvent(environment),
    nextEvent: async () => {
      queuedBefore = await environment.queuedJobs();
      // The creation of a secret never written: the fan-out only reads its owner's key.
      const [owner, created] = [await freshKey(environment.receiver.url('/fan-out')), Date.now()];
      const expires = created + SECRET_TTLS[SECRET_DEFAULTS.ttl];
      const secret = head({ pk: randomUrlSafeId(SECRET_ID_BYTES), owner: owner.keyHash, created, expires, ttl: Math.ceil(expires / 1000) });
      return { Records: [streamRecord('INSERT', { new: secret })] };
    },
    confirm: async () => {
      const queued = (await environment.queuedJobs()) - queuedBefore;
      if (queued !== 1) throw new Error(`the fan-out queued ${queued} jobs, not 1`);
    },
  };
}

/** A first attempt at one job whose owner's webhook is the bench's receiver, which answers 200. */
function delivery(environment: BenchEnvironment): BenchFunction {
  const receiverPath = '/delivery';
  // Counted from before each request: an attempt that failed may or may not have delivered.
  let expected = 0;
  return {
    name: path.basename(PIPELINE_ENTRIES.delivery, '.ts'),
    entry: PIPELINE_ENTRIES.delivery,
    kind: 'pipeline',
    floorEvent: batchFloorEvent(environment, environment.receiver.url('/floor')),
    nextEvent: async () => {
      const owner = await freshKey(environment.receiver.url(receiverPath));
      expected = environment.receiver.received(receiverPath).length + 1;
      const job = {
        eventId: `evt_${randomBytes(16).toString('hex')}`,
        owner: owner.keyHash,
        event: { event: 'secret.created' as const, timestamp: Date.now(), data: { id: randomUrlSafeId(SECRET_ID_BYTES) } },
      };
      return sqsEvent(sqsRecord(JSON.stringify(job), 1));
    },
    confirm: () => {
      const received = environment.receiver.received(receiverPath).length;
      return received === expected ? Promise.resolve() : Promise.reject(new Error(`the receiver has ${received} deliveries, not ${expected}`));
    },
  };
}

/** The routes in table order, then the webhook pipeline. */
export const benchFunctions = (env: BenchEnvironment): BenchFunction[] => [...routeFunctions(env), fanOut(env), delivery(env)];
