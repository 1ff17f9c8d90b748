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

/** Every queue keeps messages for SQS's maximum: a job expiring in the jobs queue would never be dead-lettered. */
const RETENTION = Duration.days(DEAD_LETTER_RETENTION_DAYS);

/** SQS-managed encryption: at rest just the same, and no one needs KMS permissions. */
function protectedQueue(scope: Construct, id: string, props: QueueProps = {}): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: RETENTION,
    ...props,
  });
}

/** The pipeline's queues (QUEUES in lambdas/definitions/webhooks.ts). */
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
