import type { DynamoDBRecord } from 'aws-lambda';
import { keysWithWebhooks } from '../store/key-store';
import { webhookJobOf } from './events';
import type { WebhookJob } from './rules/webhook-job';

/**
 * The webhook jobs a batch of stream records calls for, by the sequence number of the record
 * each comes from. Events of keys without a webhook are dropped here, with one batched read for
 * the whole batch, so that they cost no queue message and no delivery invocation.
 */
export async function webhookJobsOf(records: readonly DynamoDBRecord[]): Promise<Map<string, WebhookJob>> {
  const jobs = new Map<string, WebhookJob>();
  for (const record of records) {
    const job = webhookJobOf(record);
    const sequenceNumber = record.dynamodb?.SequenceNumber;
    if (job && sequenceNumber !== undefined) jobs.set(sequenceNumber, job);
  }
  const subscribed = await keysWithWebhooks([...new Set([...jobs.values()].map((job) => job.owner))]);
  for (const [sequenceNumber, job] of jobs) if (!subscribed.has(job.owner)) jobs.delete(sequenceNumber);
  return jobs;
}
