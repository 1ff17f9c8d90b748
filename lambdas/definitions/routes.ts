import {
  CLAIM_VIEW,
  COUNT_ADDRESS_BYTES,
  COUNT_IDEMPOTENT_REQUEST,
  COUNT_REQUEST,
  COUNT_SECRET_CREATE,
  COUNT_WRONG_PROOF,
  FULFIL_REQUEST,
  LOG_CREATION_ATTEMPT,
  MARK_SECRET_HEAD_ANSWERED,
  PUT_KEY,
  PUT_REQUEST,
  PUT_SECRET_HEAD,
  READ_RECEIPT,
  SETTLE_CLAIM,
  SETTLE_FULFILMENT,
  SETTLE_KEY,
  SETTLE_KEY_AND_ADDRESS_BYTES,
  SETTLE_KEY_CREATION,
  SETTLE_SECRET_HEAD,
  SET_WEBHOOK,
  UNCOUNT_KEY_BYTES,
  type TableAccess,
} from './access';
import { API_BASE_PATH } from './limits';
import { METRICS, type MetricName } from './observability';

/**
 * The route table: one Lambda per route. The stack creates a function and an API Gateway method
 * from each row, and a dashboard of the metrics it counts; local mode serves the same handler
 * module at the same path.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  /** Function name suffix and handler file name under lambdas/routes/. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path below /api/v1, with API Gateway's {param} syntax. */
  readonly path: string;
  /** What its function may do to the tables (access.ts): the stack grants exactly this. */
  readonly access: TableAccess;
  /** Reads the client's address (http/client-address.ts): the stack gives it the distribution's origin secret. */
  readonly readsClientAddress?: boolean;
  /** What an answer with this status counts as: the route builder adds 1 to that metric. */
  readonly counts?: Readonly<Record<number, MetricName>>;
  /** Takes an Idempotency-Key (limits.ts IDEMPOTENCY); its access counts with COUNT_IDEMPOTENT_REQUEST. */
  readonly idempotent?: boolean;
  /** Sends to the webhook jobs queue: the stack gives it the queue's URL and sqs:SendMessage on it. */
  readonly sendsWebhookJobs?: boolean;
}

/** Keeps each row a RouteDefinition while remembering the names, so that code can name a route safely. */
const routeTable = <const Name extends string>(
  routes: readonly (RouteDefinition & { readonly name: Name })[],
): readonly (RouteDefinition & { readonly name: Name })[] => routes;

export const ROUTES = routeTable([
  { name: 'health', method: 'GET', path: '/health', access: { keys: [{ actions: ['dynamodb:GetItem'] }] } },
  {
    name: 'keys-create',
    method: 'POST',
    path: '/keys',
    access: { keys: [LOG_CREATION_ATTEMPT, PUT_KEY, SETTLE_KEY_CREATION] },
    readsClientAddress: true,
  },
  { name: 'keys-get', method: 'GET', path: '/keys', access: { keys: [COUNT_REQUEST, SETTLE_KEY] } },
  { name: 'keys-update', method: 'PATCH', path: '/keys', access: { keys: [COUNT_REQUEST, SET_WEBHOOK, SETTLE_KEY] } },
  // Queues a webhook.test event through the webhook pipeline; reads the key as every keyed route does.
  { name: 'keys-webhook-test', method: 'POST', path: '/keys/webhook/test', access: { keys: [COUNT_REQUEST, SETTLE_KEY] }, sendsWebhookJobs: true },
  { name: 'keys-delete', method: 'DELETE', path: '/keys', access: { keys: [COUNT_REQUEST, { actions: ['dynamodb:DeleteItem'] }, SETTLE_KEY] } },
  {
    name: 'secrets-create',
    method: 'POST',
    path: '/secrets',
    access: {
      // The count also adds the body's bytes to the key's day; the address's daily bytes
      // (use-cases/stored-bytes.ts) are counted apart, and both are taken back when refused.
      keys: [COUNT_SECRET_CREATE, SETTLE_KEY_AND_ADDRESS_BYTES, UNCOUNT_KEY_BYTES, COUNT_ADDRESS_BYTES],
      // Chunks are written in batches; a create that fails deletes its head and chunks again. A
      // keyed repeat marks the first's head it answers with, so that the first does not undo it.
      secrets: [PUT_SECRET_HEAD, MARK_SECRET_HEAD_ANSWERED, { actions: ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem'] }, SETTLE_SECRET_HEAD],
    },
    readsClientAddress: true,
    counts: { 201: METRICS.secretsCreated },
    idempotent: true,
  },
  {
    name: 'secrets-claim',
    method: 'GET',
    path: '/secrets/{id}',
    // Deletes nothing: the stream consumer deletes what the last view consumed.
    access: {
      keys: [COUNT_IDEMPOTENT_REQUEST, SETTLE_KEY],
      secrets: [CLAIM_VIEW, COUNT_WRONG_PROOF, { actions: ['dynamodb:BatchGetItem'] }, SETTLE_CLAIM],
    },
    counts: { 200: METRICS.secretsClaimed, 404: METRICS.claimsRefused },
    idempotent: true,
  },
  {
    name: 'secrets-revoke',
    method: 'DELETE',
    path: '/secrets/{id}',
    access: {
      keys: [COUNT_IDEMPOTENT_REQUEST, SETTLE_KEY],
      secrets: [{ actions: ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] }, SETTLE_SECRET_HEAD],
    },
    counts: { 200: METRICS.secretsRevoked },
    idempotent: true,
  },
  // Reads the receipt's attributes only (never the data), and uses no view.
  { name: 'secrets-status', method: 'GET', path: '/secrets/{id}/status', access: { keys: [COUNT_REQUEST, SETTLE_KEY], secrets: [READ_RECEIPT] } },
  // Secret requests (docs/api.md): the requester registers a public key, any key fulfils once.
  {
    name: 'requests-create',
    method: 'POST',
    path: '/requests',
    access: { keys: [COUNT_IDEMPOTENT_REQUEST, SETTLE_KEY], secrets: [PUT_REQUEST, SETTLE_SECRET_HEAD] },
    idempotent: true,
  },
  // What the sender needs to encrypt: read with a projection that leaves any answer's data out.
  {
    name: 'requests-get',
    method: 'GET',
    path: '/requests/{id}',
    access: { keys: [COUNT_REQUEST, SETTLE_KEY], secrets: [{ actions: ['dynamodb:GetItem'] }] },
  },
  {
    name: 'requests-fulfil',
    method: 'POST',
    path: '/requests/{id}',
    // Large answers' chunks are written in batches, and deleted again when the request was not open.
    // The answer's bytes count against the key's and the address's day as POST /secrets's do.
    access: {
      keys: [COUNT_SECRET_CREATE, SETTLE_KEY_AND_ADDRESS_BYTES, UNCOUNT_KEY_BYTES, COUNT_ADDRESS_BYTES],
      secrets: [FULFIL_REQUEST, { actions: ['dynamodb:BatchWriteItem'] }, SETTLE_FULFILMENT],
    },
    readsClientAddress: true,
    counts: { 201: METRICS.secretsCreated },
    idempotent: true,
  },
  {
    name: 'requests-status',
    method: 'GET',
    path: '/requests/{id}/status',
    access: { keys: [COUNT_REQUEST, SETTLE_KEY], secrets: [{ actions: ['dynamodb:GetItem'] }] },
  },
]);

export type RouteName = (typeof ROUTES)[number]['name'];

/** Where each route's handler module lives, relative to the repository root. */
export const routeEntry = (route: RouteDefinition): string => `lambdas/routes/${route.name}.ts`;

/** The route's template as API Gateway names it (`GET /api/v1/secrets/{id}`): what logs and metrics say, never a path. */
export const routeTemplate = (route: RouteDefinition): string => `${route.method} ${API_BASE_PATH}${route.path}`;

/** The row serving a proxy event, found by its method and resource, which is the template, never the path. */
export const routeOfRequest = (method: string, resource: string): RouteDefinition | undefined =>
  ROUTES.find((route) => route.method === method && `${API_BASE_PATH}${route.path}` === resource);
