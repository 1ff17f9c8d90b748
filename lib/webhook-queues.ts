import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  CONSUMED_SECRETS_VISIBILITY_TIMEOUT_MS,
  DEAD_LETTER_RETENTION_DAYS,
  JOBS_VISIBILITY_TIMEOUT_MS,
  QUEUES,
  WEBHOOK_ATTEMPTS,
} from '#lambdas/definitions/webhooks';

export interface WebhookQueues {
  readonly jobs: Queue;
  readonly deadLetters: Queue;
  readonly fanOutFailures: Queue;
  readonly consumedSecrets: Queue;
}

/**
 * Every queue keeps messages for the dead-letter retention, SQS's maximum. The jobs queue too: a job
 * that expired there would vanish without ever reaching the dead-letter queue. (A standard queue's
 * dead letter keeps its first enqueue time, so it is kept 14 days from when the job was queued.)
 */
const RETENTION = Duration.days(DEAD_LETTER_RETENTION_DAYS);

/**
 * SQS-managed encryption rather than a KMS key of ours: it encrypts at rest just the same, and
 * producers and consumers (and Lambda's on-failure destination) need no KMS permissions.
 */
function protectedQueue(scope: Construct, id: string, props: QueueProps = {}): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: RETENTION,
    ...props,
  });
}

/**
 * The pipeline's queues: jobs, where failed jobs end up, stream batches the fan-out gave up on,
 * and consumed secrets to delete after a delay.
 */
export function webhookQueues(scope: Construct): WebhookQueues {
  const deadLetters = protectedQueue(scope, QUEUES.deadLetters.id);
  const jobs = protectedQueue(scope, QUEUES.jobs.id, {
    visibilityTimeout: Duration.millis(JOBS_VISIBILITY_TIMEOUT_MS),
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: WEBHOOK_ATTEMPTS },
  });
  const fanOutFailures = protectedQueue(scope, QUEUES.fanOutFailures.id);
  const consumedSecrets = protectedQueue(scope, QUEUES.consumedSecrets.id, {
    visibilityTimeout: Duration.millis(CONSUMED_SECRETS_VISIBILITY_TIMEOUT_MS),
  });
  return { jobs, deadLetters, fanOutFailures, consumedSecrets };
}
