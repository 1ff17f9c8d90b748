/** What the functions log and count, named once for the functions, the dashboard and the tests. */

/** The `service` key of every log line and the `service` dimension of every metric. */
export const SERVICE_NAME = 'onetime-secrets';

export const METRICS_NAMESPACE = 'OneTimeSecrets';

export const METRICS = {
  secretsCreated: 'SecretsCreated',
  secretsClaimed: 'SecretsClaimed',
  secretsRevoked: 'SecretsRevoked',
  /** A claim answered 404: no such secret, used up, expired or revoked. */
  claimsRefused: 'ClaimsRefused',
  webhooksDelivered: 'WebhooksDelivered',
  /** Every failed attempt, the last one included. */
  webhookAttemptsFailed: 'WebhookAttemptsFailed',
  /** A failed last attempt: SQS moves the job to the dead-letter queue on its next receipt. */
  webhooksDeadLettered: 'WebhooksDeadLettered',
  /** A receiver answered 410 Gone: that event's retries end, and it is not dead-lettered. */
  webhooksGone: 'WebhooksGone',
} as const;

export type MetricName = (typeof METRICS)[keyof typeof METRICS];

/** Dimensions besides `service`: the route template (never a path, which holds an id), or the event name. */
export const METRIC_DIMENSIONS = {
  route: 'route',
  event: 'event',
} as const;

/** The Logger's level names, as POWERTOOLS_LOG_LEVEL takes them. */
export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** The stack's default level: a line per request or batch, and every warning and error. */
export const DEFAULT_LOG_LEVEL: LogLevelName = 'INFO';

/** What a function's request or batch line says, so that tests and queries can find it. */
export const LOG_MESSAGES = {
  request: 'request',
  webhookAttempt: 'webhook attempt',
  streamBatch: 'stream batch',
  delayedDeletions: 'delayed deletions',
} as const;
