import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { LOG_MESSAGES } from '#lambdas/definitions/observability';
import { MAX_FAN_OUT_DELETION_WAIT_MS, REVOKED_CHUNKS_DELETION_DELAY_MS } from '#lambdas/definitions/webhooks';
import { deleteConsumedSecretLater, type ConsumedSecretMessage } from '../queue/consumed-secrets';
import { enqueueWebhookJob } from '../queue/webhook-jobs';
import { putReceipt } from '#lambdas/store/receipt-store';
import { deleteChunks, deleteConsumedSecret, deleteRevokedChunks } from '#lambdas/store/secret-store';
import { consumedSecretOf, revokedChunksOf } from '../stream/consumed-secrets';
import { receiptToKeep } from '../stream/receipts';
import { telemetryMiddlewares } from '#lambdas/telemetry/middleware';
import { logger } from '#lambdas/telemetry/powertools';
import { webhookJobsOf } from '../fan-out';

/**
 * The secrets table's stream consumer: queues each record's webhook job, deletes the secrets
 * whose last view was taken (claims leave that to this function, to spare the request a call),
 * deletes a revoked secret's chunks once more (revokedChunksOf; a plain secret's through the
 * consumed-secrets queue, after REVOKED_CHUNKS_DELETION_DELAY_MS), and keeps the receipt of
 * each deleted head (docs/decisions/receipts.md).
 * A record whose job cannot be queued, or whose secret cannot be deleted, is reported as a batch
 * item failure, so the stream retries from it (bisecting, then the on-failure queue); records
 * re-sent by a retry carry the same event id, and deleting again is a no-op.
 *
 * Records are processed side by side, so a deletion that waits out a claim's retry window (see
 * consumedSecretOf) holds up only its own record, never the other records' jobs. A deletion due
 * later than that (a keyed last view's, kept for its repeat) is sent to the consumed-secrets
 * queue with its delay, and this function, which that queue's mapping invokes too, deletes the
 * secret when it comes back (docs/decisions/consumed-secrets.md).
 */

const untilTime = (at: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

async function fanOut(event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> {
  const started = Date.now();
  const jobs = await webhookJobsOf(event.Records);
  const processRecord = async (record: DynamoDBRecord): Promise<void> => {
    const job = jobs.get(record.dynamodb?.SequenceNumber ?? '');
    if (job) await enqueueWebhookJob(job);
    // Before the deletion below: a status read must find the head or its receipt.
    const kept = receiptToKeep(record);
    if (kept) await putReceipt(kept.id, kept.owner, kept.receipt);
    const revoked = revokedChunksOf(record);
    // An answer's chunk id is its fulfilment's own; a secret's id may be written again for a while.
    if (revoked?.chunkId !== undefined) await deleteChunks(revoked.chunkId, revoked.chunks);
    else if (revoked) await deleteConsumedSecretLater({ ...revoked, revokedChunks: true }, REVOKED_CHUNKS_DELETION_DELAY_MS);
    const consumed = consumedSecretOf(record);
    if (consumed === undefined) return;
    const { deletableAt, ...secret } = consumed;
    if (deletableAt - Date.now() > MAX_FAN_OUT_DELETION_WAIT_MS) return deleteConsumedSecretLater(secret, deletableAt - Date.now());
    await untilTime(deletableAt);
    await deleteConsumedSecret(secret);
  };
  // A processor per invocation: it holds one batch's state.
  const response = await processPartialResponse(event, processRecord, new BatchProcessor(EventType.DynamoDBStreams), { context });
  // Counts only: records hold secret data and ids.
  const line = { records: event.Records.length, jobs: jobs.size, failed: response.batchItemFailures.length, durationMs: Date.now() - started };
  if (line.failed > 0) logger.warn(LOG_MESSAGES.streamBatch, line);
  else logger.info(LOG_MESSAGES.streamBatch, line);
  return response;
}

/** Messages of the consumed-secrets queue, delivered once their delay has passed: delete each. */
async function deleteDelayed(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const deleteOne = async (record: SQSRecord): Promise<void> => {
    const { revokedChunks, ...secret } = JSON.parse(record.body) as ConsumedSecretMessage;
    if (revokedChunks) await deleteRevokedChunks(secret);
    else await deleteConsumedSecret(secret);
  };
  const response = await processPartialResponse(event, deleteOne, new BatchProcessor(EventType.SQS), { context });
  logger.info(LOG_MESSAGES.delayedDeletions, { messages: event.Records.length, failed: response.batchItemFailures.length });
  return response;
}

const isSqsEvent = (event: DynamoDBStreamEvent | SQSEvent): event is SQSEvent => event.Records[0]?.eventSource === 'aws:sqs';

export const handler = middy<DynamoDBStreamEvent | SQSEvent, DynamoDBBatchResponse | SQSBatchResponse>()
  .use(telemetryMiddlewares())
  .handler((event, context) => (isSqsEvent(event) ? deleteDelayed(event, context) : fanOut(event, context)));
