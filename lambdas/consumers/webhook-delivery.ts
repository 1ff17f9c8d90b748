import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { readDeliveryConfig } from '../core/config';
import { retryWebhookJobAfter } from '../queue/webhook-jobs';
import { attemptDelivery, delayAfterFailedAttempt, type DeliveryResult } from '../webhooks/delivery';
import { parseWebhookJob } from '../webhooks/job';

/**
 * Webhook jobs queue → receivers. A failed attempt reschedules its message and is reported as a
 * batch item failure; after the last attempt SQS's redrive policy moves it to the dead-letter queue.
 */
const config = readDeliveryConfig();

async function deliver(record: SQSRecord): Promise<void> {
  const started = Date.now();
  const attempt = Number(record.attributes.ApproximateReceiveCount);
  const job = parseWebhookJob(record.body);
  // A malformed job cannot succeed; failing it like any other sends it to the dead letters to be inspected.
  const result: DeliveryResult = job
    ? await attemptDelivery(job, { allowLoopback: config.webhookAllowLoopback })
    : { outcome: 'failed', reason: 'message is not a webhook job' };
  // Never the URL, the secret's id or the signature: the event id is a digest safe to log.
  console.log(
    JSON.stringify({
      message: 'webhook attempt',
      eventId: job?.eventId,
      event: job?.event.event,
      attempt,
      ...result,
      ms: Date.now() - started,
    }),
  );
  if (result.outcome !== 'failed') return;
  await retryWebhookJobAfter(record.receiptHandle, delayAfterFailedAttempt(attempt, config.retryBaseMs));
  throw new Error(`webhook attempt ${attempt} failed: ${result.reason}`);
}

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  // Receivers failing is business as usual, not an error of this function: report, don't throw.
  // A processor per invocation: it holds the batch's state, and local mode runs invocations side by side.
  return processPartialResponse(event, deliver, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false });
}
