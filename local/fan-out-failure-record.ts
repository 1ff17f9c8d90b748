import type { DynamoDBRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import * as z from 'zod';

/**
 * What Lambda's on-failure destination receives for a stream batch out of retries: its place in the
 * stream, never its records. Local mode sends the same; `npm run dlq -- replay` reads either back.
 */

export const fanOutFailureRecordSchema = z.object({
  DDBStreamBatchInfo: z.object({
    shardId: z.string().min(1),
    startSequenceNumber: z.string().regex(/^\d+$/),
    endSequenceNumber: z.string().regex(/^\d+$/),
    streamArn: z.string().min(1),
  }),
});

export type FanOutFailureRecord = z.infer<typeof fanOutFailureRecordSchema>;

export interface FailedBatch {
  functionArn: string;
  streamArn: string;
  shardId: string;
  /** In stream order, as the batch held them. */
  records: readonly DynamoDBRecord[];
  invocations: number;
}

const arrivalOf = (record: DynamoDBRecord | undefined): string | undefined => {
  const seconds = record?.dynamodb?.ApproximateCreationDateTime;
  return seconds === undefined ? undefined : new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
};

/** The record as Lambda shapes it for an exhausted batch (condition RetryAttemptsExhausted); the schema reads it back. */
export function fanOutFailureRecord(batch: FailedBatch, now = new Date()): Record<string, unknown> {
  const first = batch.records[0];
  const last = batch.records.at(-1);
  const sequenceNumber = (record: DynamoDBRecord | undefined): string => {
    const value = record?.dynamodb?.SequenceNumber;
    if (value === undefined) throw new Error('a failed stream batch has a record without a sequence number');
    return value;
  };
  return {
    requestContext: {
      requestId: randomUUID(),
      functionArn: batch.functionArn,
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: batch.invocations,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: now.toISOString(),
    DDBStreamBatchInfo: {
      shardId: batch.shardId,
      startSequenceNumber: sequenceNumber(first),
      endSequenceNumber: sequenceNumber(last),
      ...(arrivalOf(first) ? { approximateArrivalOfFirstRecord: arrivalOf(first) } : {}),
      ...(arrivalOf(last) ? { approximateArrivalOfLastRecord: arrivalOf(last) } : {}),
      batchSize: batch.records.length,
      streamArn: batch.streamArn,
    },
  };
}
