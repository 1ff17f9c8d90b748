import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { passesStreamEventFilter } from '#lambdas/webhooks/stream/records';
import { LOCAL_AWS_SETTINGS, withoutSdkLogging } from './aws-account';
import { backoffMs, describe, invokeWithTimeout, pollUntilAborted, sleep, type Invocation, type Poller } from './poller-support';
import type { StreamCheckpoint } from './stream-checkpoint';
import { lambdaContext } from './lambda-context';
import { lambdaRecord } from './lambda-stream-record';

/**
 * Lambda's DynamoDB stream event source mapping on DynamoDB Local's stream, with the stack's filter.
 * As on Lambda, failed records are retried from the lowest failed sequence number up to the retry
 * limit, then go to `onGiveUp` (the on-failure destination) and are skipped.
 */

export interface StreamPollerOptions {
  endpoint: string;
  /** The secrets table's LatestStreamArn. */
  streamArn: string;
  functionName: string;
  batchSize: number;
  retryAttempts: number;
  timeoutMs: number;
  /** Where shards open at start are read from; shards that appear later are read from their start. */
  startingPosition: StartingPosition;
  pollIntervalMs: number;
  handler: (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;
  onGiveUp?: (failed: { shardId: string; records: DynamoDBRecord[]; invocations: number }) => Promise<void>;
  /** Where each shard was left; shards it does not know are read from `startingPosition`. */
  checkpoint?: Pick<StreamCheckpoint, 'positionOf' | 'save'>;
  log: (line: string) => void;
}

type StartingPosition = 'TRIM_HORIZON' | 'LATEST';
type ResumePosition = StartingPosition | { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER'; SequenceNumber: string };

/** Where reading a shard goes on: its next iterator (none once the shard is closed), and where to restart. */
interface ShardPosition {
  iterator: string | undefined;
  resumeFrom: ResumePosition;
  /** Epoch ms; set once a LATEST start had to fall back to TRIM_HORIZON (see afterLostIterator). */
  skipCreatedBefore?: number;
}

/** DynamoDB Local rounds ApproximateCreationDateTime down to the minute: so are the times compared with it. */
const CREATION_TIME_PRECISION_MS = 60_000;

export async function startStreamPoller(options: StreamPollerOptions): Promise<Poller> {
  const { streamArn } = options;
  const startedAt = Math.floor(Date.now() / CREATION_TIME_PRECISION_MS) * CREATION_TIME_PRECISION_MS;
  const streams = withoutSdkLogging(new DynamoDBStreamsClient({ endpoint: options.endpoint, ...LOCAL_AWS_SETTINGS }));
  const shards = new Map<string, ShardPosition>();
  /** Shards whose child DescribeStream has listed: reading goes on there once they close. */
  const parents = new Set<string>();
  const stopping = new AbortController();
  const { signal } = stopping;

  const iteratorAt = async (ShardId: string, position: ResumePosition): Promise<string | undefined> => {
    const where = typeof position === 'string' ? { ShardIteratorType: position } : position;
    return (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId, ...where }), { abortSignal: signal })).ShardIterator;
  };

  const discoverShards = async (startingPosition: StartingPosition): Promise<void> => {
    for (const shard of await listShards(streams, streamArn, signal)) {
      if (shard.ParentShardId) parents.add(shard.ParentShardId);
      if (!shard.ShardId || shards.has(shard.ShardId)) continue;
      const saved = options.checkpoint?.positionOf(shard.ShardId);
      const position: ResumePosition = saved ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: saved } : startingPosition;
      shards.set(shard.ShardId, { iterator: await iteratorAt(shard.ShardId, position), resumeFrom: position });
    }
  };

  /** A closed shard (no next iterator) hands over to a child, which DescribeStream may not list yet. */
  const childMissing = (): boolean => [...shards].some(([shardId, position]) => !position.iterator && !parents.has(shardId));

  const pollShard = async (shardId: string, position: ShardPosition, iterator: string): Promise<void> => {
    let response;
    try {
      response = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: options.batchSize }), { abortSignal: signal });
    } catch (error) {
      // DynamoDB Local invalidates an iterator taken while its shard was empty once the first
      // record arrives (aws-sdk-java#2923); an iterator also expires after 15 minutes.
      if (!(error instanceof TrimmedDataAccessException || error instanceof ExpiredIteratorException)) throw error;
      const resumed = afterLostIterator(position, startedAt);
      shards.set(shardId, { ...resumed, iterator: await iteratorAt(shardId, resumed.resumeFrom) });
      return;
    }
    const { Records = [], NextShardIterator } = response;
    const batch = Records.filter((record) => !createdBefore(record, position.skipCreatedBefore))
      .map((record) => lambdaRecord(record, streamArn))
      .filter(passesStreamEventFilter);
    const settled = batch.length === 0 || (await invokeUntilDone(batch, shardId, options, signal));
    const last = Records.at(-1)?.dynamodb?.SequenceNumber;
    if (settled && last) options.checkpoint?.save(shardId, last);
    shards.set(shardId, {
      ...position,
      iterator: NextShardIterator,
      resumeFrom: last ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: last } : position.resumeFrom,
    });
  };

  try {
    await discoverShards(options.startingPosition);
  } catch (error) {
    streams.destroy();
    throw error;
  }
  const loop = pollUntilAborted(
    signal,
    async () => {
      for (const [shardId, position] of shards) {
        if (position.iterator && !signal.aborted) await pollShard(shardId, position, position.iterator);
      }
      if (childMissing()) await discoverShards('TRIM_HORIZON');
      await sleep(options.pollIntervalMs, signal);
    },
    (error, waitMs) => options.log(`${options.functionName}: stream read failed: ${describe(error)}; again in ${waitMs} ms`),
  );

  return {
    stop: async () => {
      stopping.abort();
      await loop;
      streams.destroy();
    },
  };
}

/** Where reading goes on once an iterator is lost: where it left off; a LATEST start re-reads from the start, skipping older records. */
function afterLostIterator(position: ShardPosition, startedAt: number): ShardPosition {
  if (position.resumeFrom !== 'LATEST') return position;
  return { ...position, resumeFrom: 'TRIM_HORIZON', skipCreatedBefore: startedAt };
}

function createdBefore(record: StreamRecord, time: number | undefined): boolean {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  return time !== undefined && created !== undefined && created.getTime() < time;
}

async function listShards(streams: DynamoDBStreamsClient, streamArn: string, signal: AbortSignal): Promise<Shard[]> {
  const shards: Shard[] = [];
  let exclusiveStart: string | undefined;
  do {
    const described = new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStart });
    const { StreamDescription } = await streams.send(described, { abortSignal: signal });
    shards.push(...(StreamDescription?.Shards ?? []));
    exclusiveStart = StreamDescription?.LastEvaluatedShardId;
  } while (exclusiveStart);
  return shards;
}

/** True once every record succeeded or was given up on; false if stopping cut it short. */
async function invokeUntilDone(batch: DynamoDBRecord[], shardId: string, options: StreamPollerOptions, signal: AbortSignal): Promise<boolean> {
  let pending = batch;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (signal.aborted) return false;
    if (attempt > options.retryAttempts) {
      const sequenceNumbers = pending.map((record) => record.dynamodb?.SequenceNumber).join(', ');
      options.log(`${options.functionName}: gave up on ${pending.length} stream records (sequence numbers ${sequenceNumbers})`);
      await options.onGiveUp?.({ shardId, records: pending, invocations: attempt });
      return true;
    }
    if (attempt > 0) {
      await sleep(backoffMs(attempt), signal);
      if (signal.aborted) return false;
    }
    const context = lambdaContext(options.functionName, randomUUID(), options.timeoutMs);
    const event = { Records: pending };
    const invocation = await invokeWithTimeout(() => options.handler(event, context), options.timeoutMs);
    if (invocation.outcome === 'threw') {
      options.log(`${options.functionName}: invocation failed: ${describe(invocation.error)}`);
    } else if (invocation.outcome === 'timed out') {
      options.log(`${options.functionName}: invocation timed out after ${options.timeoutMs} ms`);
    }
    const failedFrom = firstFailedIndex(pending, invocation);
    const toRetry = pending.length - failedFrom;
    options.log(`${options.functionName} ${pending.length} stream records${toRetry > 0 ? `, ${toRetry} to retry` : ''}`);
    pending = pending.slice(failedFrom);
  }
  return true;
}

/** Lambda resumes a stream batch at the lowest sequence number reported as failed; a throw or a timeout fails it whole. */
function firstFailedIndex(batch: DynamoDBRecord[], invocation: Invocation<DynamoDBBatchResponse | void>): number {
  if (invocation.outcome !== 'returned') return 0;
  const failed = new Set((invocation.response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
  const index = batch.findIndex((record) => failed.has(record.dynamodb?.SequenceNumber ?? ''));
  return index === -1 ? batch.length : index;
}
