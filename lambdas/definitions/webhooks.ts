import { CLAIM_DELIVERY, PUT_RECEIPT, SETTLE_SECRET_HEAD, type TableAccess } from './access';
import { API_FUNCTION_TIMEOUT_MS } from '#contract/limits';
import { SECRET_HEAD_SK } from './tables';

/** The webhook pipeline (stream → fan-out → jobs queue → delivery), described once for the stack, local mode and tests. */

/** Per attempt: success is any 2xx within this time (contract). */
export const WEBHOOK_REQUEST_TIMEOUT_MS = 10_000;

/** Retries after the first attempt; then the job goes to the dead-letter queue. */
export const WEBHOOK_RETRIES = 3;

/** Attempts in all, which is the jobs queue's maxReceiveCount. */
export const WEBHOOK_ATTEMPTS = 1 + WEBHOOK_RETRIES;

/** At most this much of a receiver's response body is read; the rest is discarded unread. */
export const WEBHOOK_MAX_RESPONSE_BYTES = 4096;

/** Each retry waits this many times longer than the one before. */
export const WEBHOOK_RETRY_GROWTH = 12;
/** Each wait is drawn within ±this share of its nominal length, so that events failed together spread out. */
export const WEBHOOK_RETRY_JITTER = 0.1;

/** Nominal delay before the n-th retry (n = 1..WEBHOOK_RETRIES): base × 12^(n−1). */
export const retryDelayMs = (baseMs: number, retry: number): number => baseMs * WEBHOOK_RETRY_GROWTH ** (retry - 1);

export const WEBHOOK_RETRY_BASE_MS = {
  /** `npm start` default (retries 1, 12 and 144 s after); tests shorten it through the env variable. */
  local: 1_000,
  /**
   * The stack's default (context `webhookRetryBaseMs`): retries about 1 min, 12 min and 2 h 24 min
   * after, so that a receiver down for 2 hours gets every event, even at the jitter's shortest.
   */
  aws: 60_000,
} as const;

/**
 * How long an event's delivery claim is kept: longer than its retries can last (three waits, each
 * within SQS's 12-hour visibility limit), so that a copy of its job never finds it gone.
 */
export const DELIVERY_CLAIM_LIFETIME_MS = 2 * 24 * 60 * 60 * 1000;

/** Dead letters are kept this long (SQS's maximum), to be inspected and redriven. */
export const DEAD_LETTER_RETENTION_DAYS = 14;

/** Lambda timeout of the delivery function: one batch of requests, each at most 10 s, in parallel. */
export const DELIVERY_FUNCTION_TIMEOUT_MS = 20_000;

/**
 * The largest retry base: a retry delays its message by changing its visibility, which SQS caps at
 * 12 hours from when the message was received, and the attempt before it may take the delivery
 * function's whole timeout; the last wait may be drawn 10% longer than its nominal length.
 */
export const MAX_RETRY_BASE_MS = Math.floor(
  (12 * 60 * 60 * 1000 - DELIVERY_FUNCTION_TIMEOUT_MS) / (retryDelayMs(1, WEBHOOK_RETRIES) * (1 + WEBHOOK_RETRY_JITTER)),
);

/** Lambda timeout of the fan-out function. */
export const FAN_OUT_FUNCTION_TIMEOUT_MS = 30_000;
/**
 * The jobs queue's visibility timeout: AWS advises at least 6× the consuming function's timeout.
 * It applies only when a delivery invocation dies without reporting; failed attempts set their
 * own retry delay.
 */
export const JOBS_VISIBILITY_TIMEOUT_MS = 6 * DELIVERY_FUNCTION_TIMEOUT_MS;

/** SQS messages per delivery invocation. */
export const DELIVERY_BATCH_SIZE = 10;
/** Stream records per fan-out invocation. */
export const FAN_OUT_BATCH_SIZE = 100;
/** Attempts at a failing stream batch (bisected on each error) before it goes to the on-failure queue. */
export const FAN_OUT_RETRY_ATTEMPTS = 10;

/** The stream records the fan-out acts on: a head's changes; a removal leaves a receipt (webhooks/stream/receipts.ts). */
export const STREAM_EVENT_FILTER = {
  eventNames: ['INSERT', 'MODIFY', 'REMOVE'],
  sortKeyValues: [SECRET_HEAD_SK],
} as const;

/** The principal that DynamoDB TTL deletions carry in a stream record's userIdentity. */
export const TTL_DELETION_PRINCIPAL = 'dynamodb.amazonaws.com';

export const QUEUES = {
  jobs: { id: 'WebhookJobs', envVar: 'WEBHOOK_QUEUE_URL' },
  deadLetters: { id: 'WebhookDeadLetters', envVar: 'WEBHOOK_DEAD_LETTER_QUEUE_URL' },
  /** Stream batches the fan-out gave up on: their shard and sequence numbers, never their data. */
  fanOutFailures: { id: 'WebhookFanOutFailures', envVar: 'WEBHOOK_FAN_OUT_FAILURE_QUEUE_URL' },
  /** Consumed secrets whose deletion must wait longer than a fan-out invocation should. */
  consumedSecrets: { id: 'ConsumedSecrets', envVar: 'CONSUMED_SECRETS_QUEUE_URL' },
} as const;

/** A deletion due within this long the fan-out waits for; a later one goes through the consumed-secrets queue. */
export const MAX_FAN_OUT_DELETION_WAIT_MS = 5_000;
/** After a revoked chunked head, its chunks are deleted again this late, once a keyed create's repeat is surely over. */
export const REVOKED_CHUNKS_DELETION_DELAY_MS = API_FUNCTION_TIMEOUT_MS + 5_000;
/** The consumed-secrets queue's visibility timeout: 6× the function's timeout, as AWS advises. */
export const CONSUMED_SECRETS_VISIBILITY_TIMEOUT_MS = 6 * FAN_OUT_FUNCTION_TIMEOUT_MS;
/** Messages per fan-out invocation from the consumed-secrets queue. */
export const CONSUMED_SECRETS_BATCH_SIZE = 10;

/** Where each pipeline function's handler module lives, relative to the repository root. */
export const PIPELINE_ENTRIES = {
  fanOut: 'lambdas/webhooks/handlers/webhook-fan-out.ts',
  delivery: 'lambdas/webhooks/handlers/webhook-delivery.ts',
} as const;

export const WEBHOOK_HEADERS = {
  signature: 'x-svc-signature',
  eventId: 'x-svc-event-id',
  /** The Standard Webhooks headers (standardwebhooks.com), sent beside ours. */
  standardId: 'webhook-id',
  standardTimestamp: 'webhook-timestamp',
  standardSignature: 'webhook-signature',
} as const;

/** What each pipeline function may do to the tables (access.ts); the stack grants exactly this. */
export const PIPELINE_TABLE_ACCESS = {
  /** Reads events' owners; deletes consumed secrets and revoked chunks; writes the receipt of each deleted head. */
  fanOut: {
    keys: [{ actions: ['dynamodb:BatchGetItem'] }],
    secrets: [{ actions: ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] }, SETTLE_SECRET_HEAD, PUT_RECEIPT],
  },
  /** Reads the owner's webhook URL and signing secret at delivery time, and claims each event's delivery. */
  delivery: { keys: [{ actions: ['dynamodb:GetItem'] }, CLAIM_DELIVERY] },
} as const satisfies Record<keyof typeof PIPELINE_ENTRIES, TableAccess>;
