import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { DeleteMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { FAN_OUT_BATCH_SIZE, FAN_OUT_FUNCTION_TIMEOUT_MS } from '#lambdas/definitions/webhooks';
import { passesStreamEventFilter } from '#lambdas/webhooks/stream/records';
import { fanOutFailureRecordSchema, type FanOutFailureRecord } from '#local/fan-out-failure-record';
import { lambdaContext } from '#local/lambda-context';
import { lambdaRecord } from '#local/lambda-stream-record';
import { describe } from '#local/poller-support';
import { chunks, visitEach } from './dlq-commands';

/**
 * `npm run dlq -- replay`: each fan-out failure names a stream batch, never its records; they are
 * read back from the stream (kept 24 hours) and handed to the fan-out handler in this process.
 * Events already delivered are delivered again, under the same event id, as the contract allows.
 * In this process rather than through Lambda Invoke: local mode has no Lambda, a batch can exceed
 * Invoke's 6 MB payload, and the function that gave up may be the one at fault.
 */

export type FanOutHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse>;

type ReplayOptions = { sqs: SQSClient; streams: DynamoDBStreamsClient; failuresQueueUrl: string; fanOut: FanOutHandler };

/** Attempts at each part of a batch, as Lambda retries from the first record that failed. */
const ATTEMPTS = 3;
/** GetRecords may answer empty before a shard's end; this many in a row means the range is not there. */
const MAX_EMPTY_READS = 10;

/**
 * Answers how many failure records were fanned out in full (and deleted), how many stream records
 * the fan-out was handed (those its filter lets through), and which records were left, with why.
 */
export async function replayFanOutFailures(options: ReplayOptions) {
  const outcome = { replayed: 0, records: 0, left: [] as { messageId: string; why: string }[] };
  // What stays is visible again at once, for the alarm to go on showing and another replay to find.
  await visitEach(options.sqs, options.failuresQueueUrl, async (message) => {
    const result = await replayOne(message.Body ?? '', options);
    if (typeof result !== 'number') {
      outcome.left.push({ messageId: message.MessageId, why: result.why });
      return false;
    }
    await options.sqs.send(new DeleteMessageCommand({ QueueUrl: options.failuresQueueUrl, ReceiptHandle: message.ReceiptHandle }));
    outcome.replayed += 1;
    outcome.records += result;
    return true;
  });
  return outcome;
}

/** The number of records fanned out, or why the batch could not be. */
async function replayOne(body: string, options: ReplayOptions): Promise<number | { why: string }> {
  let failure: FanOutFailureRecord;
  try {
    failure = fanOutFailureRecordSchema.parse(JSON.parse(body));
  } catch {
    return { why: 'not a DynamoDB stream on-failure record (no valid DDBStreamBatchInfo)' };
  }
  const batch = failure.DDBStreamBatchInfo;
  const records = await readRange(options.streams, batch).catch((error: unknown) => {
    if (error instanceof TrimmedDataAccessException) return undefined;
    throw error;
  });
  if (!records) return { why: "its records are past the stream's 24-hour retention: they cannot be replayed" };
  if (records.at(-1)?.dynamodb?.SequenceNumber !== batch.endSequenceNumber) {
    return { why: `the stream holds no record ${batch.endSequenceNumber} in ${batch.shardId}` };
  }
  // As the event source mapping's filter would: the fan-out is only ever invoked with these.
  const events = records.map((record) => lambdaRecord(record, batch.streamArn)).filter(passesStreamEventFilter);
  for (const part of chunks(events, FAN_OUT_BATCH_SIZE)) {
    const { failed, lastError } = await fanOutWithRetries(part, options.fanOut);
    if (failed > 0) {
      const cause = lastError === undefined ? 'reported as failed' : `last error: ${describe(lastError)}`;
      return { why: `the fan-out still failed ${failed} of its records after ${ATTEMPTS} attempts (${cause})` };
    }
  }
  return events.length;
}

/** Reads `shardId` from the batch's first sequence number up to its last, both included. */
async function readRange(streams: DynamoDBStreamsClient, batch: FanOutFailureRecord['DDBStreamBatchInfo']): Promise<StreamRecord[]> {
  const last = BigInt(batch.endSequenceNumber);
  const records: StreamRecord[] = [];
  let { ShardIterator: iterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: batch.streamArn,
      ShardId: batch.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: batch.startSequenceNumber,
    }),
  );
  for (let emptyReads = 0; iterator && emptyReads < MAX_EMPTY_READS;) {
    const { Records = [], NextShardIterator } = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
    for (const record of Records) {
      if (BigInt(record.dynamodb?.SequenceNumber ?? '0') > last) return records;
      records.push(record);
    }
    if (records.at(-1)?.dynamodb?.SequenceNumber === batch.endSequenceNumber) return records;
    emptyReads = Records.length === 0 ? emptyReads + 1 : 0;
    iterator = NextShardIterator;
  }
  return records;
}

/** Invokes the handler as Lambda would, again from the first failed record; says how many still fail. */
async function fanOutWithRetries(records: DynamoDBRecord[], fanOut: FanOutHandler): Promise<{ failed: number; lastError?: unknown }> {
  let pending = records;
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS && pending.length > 0; attempt++) {
    const context = lambdaContext('webhook-fan-out-replay', randomUUID(), FAN_OUT_FUNCTION_TIMEOUT_MS);
    let failedFrom: number;
    try {
      const { batchItemFailures = [] } = await fanOut({ Records: pending }, context);
      const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
      const index = pending.findIndex((record) => failed.has(record.dynamodb?.SequenceNumber ?? ''));
      failedFrom = index === -1 ? pending.length : index;
    } catch (error) {
      lastError = error;
      failedFrom = 0;
    }
    pending = pending.slice(failedFrom);
  }
  return { failed: pending.length, ...(lastError === undefined ? {} : { lastError }) };
}
