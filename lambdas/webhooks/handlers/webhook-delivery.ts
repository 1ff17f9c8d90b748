import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { readDeliveryConfig } from '#lambdas/config/functions';
import { LOG_MESSAGES, METRIC_DIMENSIONS, METRICS, type MetricName } from '#lambdas/definitions/observability';
import { WEBHOOK_ATTEMPTS } from '#lambdas/definitions/webhooks';
import { retryWebhookJobAfter } from '../queue/webhook-jobs';
import { telemetryMiddlewares } from '#lambdas/telemetry/middleware';
import { logger, metrics } from '#lambdas/telemetry/powertools';
import { attemptDelivery, type DeliveryResult } from '../delivery';
import { releaseDelivery } from '#lambdas/store/delivery-claims';
import { delayAfterFailedAttempt } from '../rules/retry-schedule';
import { parseWebhookJob } from '../rules/webhook-job';

/**
 * Webhook jobs queue → receivers. A failed attempt reschedules its message and is reported as a
 * batch item failure; after the last attempt SQS's redrive policy moves it to the dead-letter queue.
 * A 410 Gone ends the event's retries: its message is deleted, as a delivered one's is.
 */
const config = readDeliveryConfig();

/** The event dimension of a message that is no webhook job. */
const UNREADABLE_JOB = 'unreadable job';

async function deliver(record: SQSRecord): Promise<void> {
  const started = Date.now();
  const attempt = Number(record.attributes.ApproximateReceiveCount);
  const job = parseWebhookJob(record.body);
  // A malformed job cannot succeed; failing it like any other sends it to the dead letters to be inspected.
  const result: DeliveryResult = job
    ? await attemptDelivery(job, record.messageId, { allowLoopback: config.webhookAllowLoopback })
    : { outcome: 'failed', reason: 'message is not a webhook job' };
  const event = job?.event.event ?? UNREADABLE_JOB;
  const lastAttempt = attempt >= WEBHOOK_ATTEMPTS;
  // Never the URL, the secret's id or the signature: the event id is a digest safe to log.
  const line = { eventId: job?.eventId, event, attempt, ...result, durationMs: Date.now() - started };
  if (result.outcome === 'gone') {
    logger.warn(LOG_MESSAGES.webhookAttempt, { ...line, retriesStopped: true });
    count(event, METRICS.webhooksGone);
    return;
  }
  if (result.outcome !== 'failed') {
    logger.info(LOG_MESSAGES.webhookAttempt, line);
    if (result.outcome === 'delivered') count(event, METRICS.webhooksDelivered);
    return;
  }
  if (lastAttempt) {
    logger.error(LOG_MESSAGES.webhookAttempt, { ...line, deadLettered: true });
    // A redriven job comes back as a message of its own: it must find the event free.
    if (job) await releaseDelivery(job.eventId, record.messageId);
    count(event, METRICS.webhookAttemptsFailed);
    count(event, METRICS.webhooksDeadLettered);
  } else {
    logger.warn(LOG_MESSAGES.webhookAttempt, line);
    count(event, METRICS.webhookAttemptsFailed);
  }
  await retryWebhookJobAfter(record.receiptHandle, delayAfterFailedAttempt({ attempt, retryAfterMs: result.retryAfterMs }, config.retryBaseMs));
  throw new Error(`webhook attempt ${attempt} failed: ${result.reason}`);
}

/**
 * One EMF line per count: a batch mixes events, and an EMF line carries one value per dimension.
 * Powertools' single-metric instance publishes the metric, and forgets its dimension, as it is added.
 */
function count(event: string, counted: MetricName): void {
  metrics.singleMetric().addDimension(METRIC_DIMENSIONS.event, event).addMetric(counted, MetricUnit.Count, 1);
}

async function deliverBatch(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  // Receivers failing is business as usual, not an error of this function: report, don't throw.
  // A processor per invocation: it holds the batch's state, and local mode runs invocations side by side.
  return processPartialResponse(event, deliver, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false });
}

export const handler = middy<SQSEvent, SQSBatchResponse>().use(telemetryMiddlewares()).handler(deliverBatch);
