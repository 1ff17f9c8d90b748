import { randomBytes, randomInt } from 'node:crypto';
import * as path from 'node:path';
import { SECRET_ID_BYTES } from '#contract/limits';
import { ROUTES, routeEntry, type RouteDefinition } from '#lambdas/definitions/routes';
import { PIPELINE_ENTRIES } from '#lambdas/definitions/webhooks';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { headInsertEvent, jobMessageEvent, routeEvent, type RouteRequest } from './events';
import { REQUEST_PUBLIC_KEY, SECRET_DATA, freshKey, freshRequest, freshSecret, type FreshKey } from '../fixtures';
import { unsavedSecretHead } from './fixtures';
import type { FloorDynamoDbCall, FloorEvent } from './floor/calls';
import type { ColdStartServices } from './services';

const FLOOR_ENTRIES = {
  dynamodb: path.join(__dirname, 'floor/dynamodb.ts'),
  dynamodbAndSqs: path.join(__dirname, 'floor/dynamodb-and-sqs.ts'),
  house: path.join(__dirname, 'floor/house.ts'),
  houseBody: path.join(__dirname, 'floor/house-body.ts'),
  houseBatch: path.join(__dirname, 'floor/house-batch.ts'),
} as const;

/**
 * A function's cold-start floor: a bundle, built the same way, that builds the same SDK clients
 * and makes the same calls, and does nothing else. Declared per function below, as read from its
 * code. test/integration/round-trips.test.ts pins each route's number of calls, not this list: a
 * function whose calls change needs its floor changed with them, by hand.
 */
export interface ColdStartFloor {
  entry: string;
  event: unknown;
}

const dynamoDbFloor = (dynamodb: readonly FloorDynamoDbCall[]): ColdStartFloor => ({ entry: FLOOR_ENTRIES.dynamodb, event: { dynamodb } });

/** One function to time: its handler module, its floor, and how to set up and check each sample's one request. */
export interface ColdStartTarget {
  name: string;
  /** Handler module, relative to the repository root or absolute. */
  entry: string;
  floor: ColdStartFloor;
  /**
   * The floor inside what the house rules give every function of its kind before its own work
   * (bench/cold-start/floor/house*.ts): middy, Powertools' Logger and Metrics, zod for a body,
   * Powertools' batch processor for a pipeline function.
   */
  houseFloor: ColdStartFloor;
  /** Writes a fresh fixture and returns the event of the sample's one request. */
  nextEvent(): Promise<unknown>;
  /** Throws unless the request just sent had its effect (a 2xx alone can hide a skipped step). */
  confirm(): Promise<void>;
}

const JSON_CONTENT = { 'Content-Type': 'application/json' };
const bearer = (key: FreshKey): Record<string, string> => ({ Authorization: `Bearer ${key.key}` });

/** Each key creation from an address of its own, clear of the per-address hourly limit (198.18.0.0/15). */
const freshSourceIp = (): string => `198.${18 + randomInt(2)}.${randomInt(256)}.${1 + randomInt(254)}`;

async function ownSecret(): Promise<RouteRequest> {
  const key = await freshKey();
  return { headers: bearer(key), pathParameters: { id: await freshSecret(key) } };
}

/** The body of each route's request below that sends one: its house floor parses the same. */
const ROUTE_BODIES: Readonly<Record<string, string>> = {
  'keys-create': '{}',
  'keys-update': JSON.stringify({ webhook: 'https://hooks.bench.example/cold-start' }),
  'secrets-create': JSON.stringify({ data: SECRET_DATA }),
  'requests-create': JSON.stringify({ publicKey: REQUEST_PUBLIC_KEY }),
  'requests-fulfil': JSON.stringify({ data: SECRET_DATA }),
};
const bodyOf = (name: string): string => ROUTE_BODIES[name] ?? '';

/** A typical successful request of each route. */
const ROUTE_REQUESTS: Readonly<Record<string, () => Promise<RouteRequest>>> = {
  health: () => Promise.resolve({}),
  'keys-create': () => Promise.resolve({ headers: JSON_CONTENT, body: bodyOf('keys-create'), sourceIp: freshSourceIp() }),
  'keys-get': async () => ({ headers: bearer(await freshKey()) }),
  'keys-update': async () => ({ headers: { ...bearer(await freshKey()), ...JSON_CONTENT }, body: bodyOf('keys-update') }),
  'keys-delete': async () => ({ headers: bearer(await freshKey()) }),
  'secrets-create': async () => ({ headers: { ...bearer(await freshKey()), ...JSON_CONTENT }, body: bodyOf('secrets-create') }),
  'secrets-claim': ownSecret,
  'secrets-revoke': ownSecret,
  'secrets-status': ownSecret,
  'requests-create': async () => ({ headers: { ...bearer(await freshKey()), ...JSON_CONTENT }, body: bodyOf('requests-create') }),
  'requests-get': async () => ({ headers: bearer(await freshKey()), pathParameters: { id: await freshRequest(await freshKey()) } }),
  'requests-fulfil': async () => ({
    headers: { ...bearer(await freshKey()), ...JSON_CONTENT },
    pathParameters: { id: await freshRequest(await freshKey()) },
    body: bodyOf('requests-fulfil'),
  }),
  'requests-status': async () => {
    const requester = await freshKey();
    return { headers: bearer(requester), pathParameters: { id: await freshRequest(requester) } };
  },
};

const nothingToConfirm = (): Promise<void> => Promise.resolve();

/**
 * Each route's DynamoDB calls for the request above: the health check reads; a key's creation
 * counts the address in its creation log, then writes the key; every keyed route counts the
 * request against its key, then makes its one call.
 */
const ROUTE_CALLS: Readonly<Record<string, readonly FloorDynamoDbCall[]>> = {
  health: ['GetItem'],
  'keys-create': ['UpdateItem', 'PutItem'],
  'keys-get': ['UpdateItem'],
  'keys-update': ['UpdateItem', 'UpdateItem'],
  'keys-delete': ['UpdateItem', 'DeleteItem'],
  'secrets-create': ['UpdateItem', 'PutItem'],
  'secrets-claim': ['UpdateItem', 'UpdateItem'],
  'secrets-revoke': ['UpdateItem', 'DeleteItem'],
  'secrets-status': ['UpdateItem', 'BatchGetItem'],
  'requests-create': ['UpdateItem', 'PutItem'],
  'requests-get': ['UpdateItem', 'GetItem'],
  'requests-fulfil': ['UpdateItem', 'UpdateItem'],
  'requests-status': ['UpdateItem', 'GetItem'],
};

function routeTarget(route: RouteDefinition): ColdStartTarget {
  const request = ROUTE_REQUESTS[route.name];
  const calls = ROUTE_CALLS[route.name];
  if (!request || !calls) throw new Error(`no cold-start request or floor calls are defined for route ${route.name}`);
  return {
    name: route.name,
    entry: routeEntry(route),
    floor: dynamoDbFloor(calls),
    houseFloor: houseRouteFloor(ROUTE_BODIES[route.name], { dynamodb: calls }),
    nextEvent: async () => routeEvent(route, await request()),
    confirm: nothingToConfirm,
  };
}

/** A route's house floor: its calls, with the route's body (if any) parsed and checked by zod. */
function houseRouteFloor(body: string | undefined, floor: FloorEvent): ColdStartFloor {
  return {
    entry: body === undefined ? FLOOR_ENTRIES.house : FLOOR_ENTRIES.houseBody,
    event: { headers: { 'content-type': 'application/json' }, body: body ?? null, floor },
  };
}

/** A pipeline function's house floor: its calls, as the one record of an SQS batch. */
const houseBatchFloor = (floor: FloorEvent): ColdStartFloor => ({
  entry: FLOOR_ENTRIES.houseBatch,
  event: {
    floor,
    Records: [
      {
        messageId: 'cold-start-floor',
        receiptHandle: '',
        body: '{}',
        attributes: {},
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: '',
        awsRegion: '',
      },
    ],
  },
});

const pipelineName = (entry: string): string => path.basename(entry, '.ts');

/** A secret's creation, owned by a key with a webhook: the fan-out reads the key and queues one job. */
function fanOutTarget(services: ColdStartServices): ColdStartTarget {
  const fanOutCalls: FloorEvent = { dynamodb: ['BatchGetItem'], sqsQueueUrl: services.floorQueueUrl };
  return {
    name: pipelineName(PIPELINE_ENTRIES.fanOut),
    entry: PIPELINE_ENTRIES.fanOut,
    // It reads the owners' keys in one batch, then queues the job.
    floor: { entry: FLOOR_ENTRIES.dynamodbAndSqs, event: fanOutCalls },
    houseFloor: houseBatchFloor(fanOutCalls),
    nextEvent: async () => {
      // What an attempt that failed may have queued: confirm() counts this request's jobs alone.
      await services.takeQueuedJobs();
      const owner = await freshKey(services.receiver.url('/fan-out-fixture'));
      return headInsertEvent(unsavedSecretHead(owner));
    },
    confirm: async () => {
      const queued = await services.takeQueuedJobs();
      if (queued !== 1) throw new Error(`the fan-out sample queued ${queued} jobs, not 1`);
    },
  };
}

/** A first attempt at one job whose owner's webhook is the bench's receiver, which answers 200. */
function deliveryTarget(services: ColdStartServices): ColdStartTarget {
  const receiverPath = '/cold-start-delivery';
  const deliveryCalls: FloorEvent = { dynamodb: ['GetItem'], postUrl: services.receiver.url('/cold-start-floor') };
  // Counted from before each request: an attempt that failed may or may not have delivered.
  let expected = 0;
  return {
    name: pipelineName(PIPELINE_ENTRIES.delivery),
    entry: PIPELINE_ENTRIES.delivery,
    // It reads the owner's key, then posts to the receiver; its SQS client, built at load, only reschedules failures.
    floor: { entry: FLOOR_ENTRIES.dynamodbAndSqs, event: deliveryCalls },
    houseFloor: houseBatchFloor(deliveryCalls),
    nextEvent: async () => {
      const owner = await freshKey(services.receiver.url(receiverPath));
      expected = services.receiver.received(receiverPath).length + 1;
      return jobMessageEvent(
        {
          eventId: `evt_${randomBytes(16).toString('hex')}`,
          owner: owner.keyHash,
          event: { event: 'secret.created', timestamp: Date.now(), data: { id: randomUrlSafeId(SECRET_ID_BYTES) } },
        },
        services.jobsQueueArn,
      );
    },
    confirm: () => {
      const received = services.receiver.received(receiverPath).length;
      if (received !== expected) return Promise.reject(new Error(`the receiver has ${received} deliveries, not the ${expected} expected`));
      return Promise.resolve();
    },
  };
}

/** Every function of the stack: the routes in table order, then the webhook pipeline. */
export const coldStartTargets = (services: ColdStartServices): ColdStartTarget[] => [
  ...ROUTES.map(routeTarget),
  fanOutTarget(services),
  deliveryTarget(services),
];
