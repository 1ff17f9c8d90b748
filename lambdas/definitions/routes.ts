import {
  CLAIM_VIEW,
  COUNT_ADDRESS_BYTES,
  COUNT_REQUEST,
  COUNT_SECRET_CREATE,
  RECORD_IDEMPOTENT_REQUEST,
  COUNT_WRONG_PROOF,
  FULFIL_REQUEST,
  LOG_CREATION_ATTEMPT,
  MARK_SECRET_HEAD_ANSWERED,
  PUT_KEY,
  PUT_RECEIPT,
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
import { API_BASE_PATH } from '#contract/limits';
import { ROUTES as CONTRACT_ROUTES, type RouteContract, type RouteName } from '#contract/routes';
import { METRICS, type MetricName } from './observability';

/** The route table as the server runs it: each contract route with what its function may do. */

interface RouteFunction {
  /** What its function may do to the tables (access.ts): the stack grants exactly this. */
  readonly access: TableAccess;
  /** What an answer with this status counts as: the route builder adds 1 to that metric. */
  readonly counts?: Readonly<Record<number, MetricName>>;
  /** Sends to the webhook jobs queue: the stack gives it the queue's URL and sqs:SendMessage on it. */
  readonly sendsWebhookJobs?: boolean;
}

export type RouteDefinition = RouteContract & RouteFunction;

const FUNCTIONS: Readonly<Record<RouteName, RouteFunction>> = {
  health: { access: { keys: [{ actions: ['dynamodb:GetItem'] }] } },
  'keys-create': {
    access: { keys: [LOG_CREATION_ATTEMPT, PUT_KEY, SETTLE_KEY_CREATION] },
  },
  'keys-get': { access: { keys: [COUNT_REQUEST, SETTLE_KEY] } },
  'keys-update': { access: { keys: [COUNT_REQUEST, SET_WEBHOOK, SETTLE_KEY] } },
  // Queues a webhook.test event through the webhook pipeline; reads the key as every keyed route does.
  'keys-webhook-test': { access: { keys: [COUNT_REQUEST, SETTLE_KEY] }, sendsWebhookJobs: true },
  'keys-delete': { access: { keys: [COUNT_REQUEST, { actions: ['dynamodb:DeleteItem'] }, SETTLE_KEY] } },
  'secrets-create': {
    access: {
      // The count adds the body's bytes to the key's day; the address's are counted apart.
      keys: [COUNT_SECRET_CREATE, RECORD_IDEMPOTENT_REQUEST, SETTLE_KEY_AND_ADDRESS_BYTES, UNCOUNT_KEY_BYTES, COUNT_ADDRESS_BYTES],
      // Chunks are written in batches; a failed create deletes its head and chunks again.
      secrets: [PUT_SECRET_HEAD, MARK_SECRET_HEAD_ANSWERED, { actions: ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem'] }, SETTLE_SECRET_HEAD],
    },
    counts: { 201: METRICS.secretsCreated },
  },
  'secrets-claim': {
    // Deletes nothing: the stream consumer deletes what the last view consumed.
    access: {
      keys: [COUNT_REQUEST, RECORD_IDEMPOTENT_REQUEST, SETTLE_KEY],
      secrets: [CLAIM_VIEW, COUNT_WRONG_PROOF, { actions: ['dynamodb:BatchGetItem'] }, SETTLE_CLAIM],
    },
    counts: { 200: METRICS.secretsClaimed, 404: METRICS.claimsRefused },
  },
  'secrets-revoke': {
    access: {
      keys: [COUNT_REQUEST, RECORD_IDEMPOTENT_REQUEST, SETTLE_KEY],
      // Keeps the receipt itself, so that a status read after its answer finds it (use-cases/receipts).
      secrets: [{ actions: ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] }, SETTLE_SECRET_HEAD, PUT_RECEIPT],
    },
    counts: { 200: METRICS.secretsRevoked },
  },
  // Reads the receipt's attributes only (never the data), and uses no view.
  'secrets-status': { access: { keys: [COUNT_REQUEST, SETTLE_KEY], secrets: [READ_RECEIPT] } },
  // Secret requests (docs/api.md): the requester registers a public key, any key fulfils once.
  'requests-create': {
    access: { keys: [COUNT_REQUEST, RECORD_IDEMPOTENT_REQUEST, SETTLE_KEY], secrets: [PUT_REQUEST, SETTLE_SECRET_HEAD] },
  },
  // What the sender needs to encrypt: read with a projection that leaves any answer's data out.
  'requests-get': {
    access: { keys: [COUNT_REQUEST, SETTLE_KEY], secrets: [{ actions: ['dynamodb:GetItem'] }] },
  },
  'requests-fulfil': {
    // Chunks are written in batches; the answer's bytes count as POST /secrets's do.
    access: {
      keys: [COUNT_SECRET_CREATE, RECORD_IDEMPOTENT_REQUEST, SETTLE_KEY_AND_ADDRESS_BYTES, UNCOUNT_KEY_BYTES, COUNT_ADDRESS_BYTES],
      secrets: [FULFIL_REQUEST, { actions: ['dynamodb:BatchWriteItem'] }, SETTLE_FULFILMENT],
    },
    counts: { 201: METRICS.secretsCreated },
  },
  'requests-status': {
    access: { keys: [COUNT_REQUEST, SETTLE_KEY], secrets: [{ actions: ['dynamodb:GetItem'] }] },
  },
};

export const ROUTES: readonly (RouteDefinition & { readonly name: RouteName })[] = CONTRACT_ROUTES.map((route) => ({
  ...route,
  ...FUNCTIONS[route.name],
}));

export type { RouteName } from '#contract/routes';
export { routeTemplate } from '#contract/routes';

/** Where each route's handler module lives, relative to the repository root. */
export const routeEntry = (route: RouteDefinition): string => `lambdas/routes/${route.name}.ts`;

/** The row serving a proxy event, found by its method and resource, which is the template, never the path. */
export const routeOfRequest = (method: string, resource: string): RouteDefinition | undefined =>
  ROUTES.find((route) => route.method === method && `${API_BASE_PATH}${route.path}` === resource);
