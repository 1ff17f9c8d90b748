import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { queueUrl, sqs } from './sqs';
import { QUEUES } from '#lambdas/definitions/webhooks';
import type { WebhookJob } from '../rules/webhook-job';

/** The jobs queue, as the fan-out fills it and the delivery function reschedules its messages. */

export async function enqueueWebhookJob(job: WebhookJob): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl(QUEUES.jobs), MessageBody: JSON.stringify(job) }));
}

/**
 * SQS has no backoff of its own: a failed attempt hides its message for the retry delay, after
 * which the event source mapping receives it again. SQS counts visibility in whole seconds.
 */
export async function retryWebhookJobAfter(receiptHandle: string, delayMs: number): Promise<void> {
  await sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl(QUEUES.jobs),
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: Math.ceil(delayMs / 1000),
    }),
  );
}
