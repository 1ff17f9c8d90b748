import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { enqueueWebhookJob } from '../queue/webhook-jobs';
import { webhookJobsOf } from '../webhooks/fan-out';

/**
 * Secrets table stream → webhook jobs queue. A record whose job cannot be queued is reported as
 * a batch item failure, so the stream retries from it (bisecting, then the on-failure queue);
 * records re-sent by a retry carry the same event id.
 */

export async function handler(event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> {
  const jobs = await webhookJobsOf(event.Records);
  const queueJob = async (record: DynamoDBRecord): Promise<void> => {
    const job = jobs.get(record.dynamodb?.SequenceNumber ?? '');
    if (job) await enqueueWebhookJob(job);
  };
  // A processor per invocation: it holds one batch's state.
  return processPartialResponse(event, queueJob, new BatchProcessor(EventType.DynamoDBStreams), { context });
}
