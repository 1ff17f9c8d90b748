import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  type AttributeValue as StreamAttributeValue,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { SECRETS_TABLE } from '../lambdas/definitions/tables';
import { STREAM_EVENT_FILTER } from '../lambdas/definitions/webhooks';
import { LOCAL_AWS_SETTINGS, localDynamoDbClient } from './dynamodb-local';
import { lambdaContext } from './proxy-event';

/**
 * Lambda's DynamoDB stream event source mapping, locally: reads DynamoDB Local's real stream of
 * the secrets table, drops what the stack's filter criteria drop, and invokes the handler with the
 * event Lambda would build. Failed records (a throw, or batch item failures) are retried from the
 * lowest failed sequence number, as Lambda does, until the retry limit; then they are logged and
 * skipped, where on AWS the on-failure queue gets their shard and sequence numbers.
 */

export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  functionName: string;
  batchSize: number;
  retryAttempts: number;
  timeoutMs: number;
  /** Where shards open at start are read from; shards that appear later are read from their start. */
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  pollIntervalMs: number;
  handler: (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;
  log: (line: string) => void;
}

export interface StreamPoller {
  stop(): Promise<void>;
}

/** Where reading a shard goes on: its next iterator (none once the shard is closed), and where to restart. */
interface ShardPosition {
  iterator: string | undefined;
  resumeFrom: StreamPollerOptions['startingPosition'] | { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER'; SequenceNumber: string };
}

const RETRY_BACKOFF_MS = { first: 100, max: 5_000 } as const;

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const tables = localDynamoDbClient(options.endpoint);
  const { Table } = await tables.send(new DescribeTableCommand({ TableName: options.tableName }));
  tables.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);

  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, ...LOCAL_AWS_SETTINGS });
  const shards = new Map<string, ShardPosition>();
  let stopped = false;

  const iteratorAt = async (shardId: string, position: ShardPosition['resumeFrom']): Promise<string | undefined> => {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(typeof position === 'string' ? { ShardIteratorType: position } : position),
      }),
    );
    return ShardIterator;
  };

  const discoverShards = async (startingPosition: StreamPollerOptions['startingPosition']): Promise<void> => {
    for (const shard of await listShards(streams, streamArn)) {
      if (!shard.ShardId || shards.has(shard.ShardId)) continue;
      const iterator = await iteratorAt(shard.ShardId, startingPosition);
      shards.set(shard.ShardId, { iterator, resumeFrom: startingPosition });
    }
  };

  const pollShard = async (shardId: string, position: ShardPosition & { iterator: string }): Promise<void> => {
    let response;
    try {
      response = await streams.send(new GetRecordsCommand({ ShardIterator: position.iterator, Limit: options.batchSize }));
    } catch (error) {
      // DynamoDB Local invalidates an iterator taken while its shard was empty once the first
      // record arrives (aws-sdk-java#2923); an iterator also expires after 15 minutes. Either way,
      // pick up again right after the last record read.
      if (!(error instanceof TrimmedDataAccessException || error instanceof ExpiredIteratorException)) throw error;
      shards.set(shardId, { ...position, iterator: await iteratorAt(shardId, position.resumeFrom) });
      return;
    }
    const { Records = [], NextShardIterator } = response;
    const batch = Records.map((record) => lambdaRecord(record, streamArn)).filter(passesFilter);
    if (batch.length > 0) await invokeUntilDone(batch, options, () => stopped);
    const last = Records.at(-1)?.dynamodb?.SequenceNumber;
    shards.set(shardId, {
      iterator: NextShardIterator,
      resumeFrom: last ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: last } : position.resumeFrom,
    });
  };

  await discoverShards(options.startingPosition);
  let closedShards = 0;
  const loop = (async () => {
    while (!stopped) {
      try {
        for (const [shardId, position] of shards) {
          if (position.iterator && !stopped) await pollShard(shardId, { ...position, iterator: position.iterator });
        }
        // A newly closed shard (no next iterator) means DynamoDB rolled the stream over to new ones.
        const closed = [...shards.values()].filter((position) => !position.iterator).length;
        if (closed > closedShards) await discoverShards('TRIM_HORIZON');
        closedShards = closed;
      } catch (error) {
        if (!stopped) options.log(`${options.functionName}: stream read failed: ${describe(error)}`);
      }
      await sleep(options.pollIntervalMs);
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      await loop;
      streams.destroy();
    },
  };
}

async function listShards(streams: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
  const shards: Shard[] = [];
  let exclusiveStart: string | undefined;
  do {
    const { StreamDescription } = await streams.send(
      new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStart }),
    );
    shards.push(...(StreamDescription?.Shards ?? []));
    exclusiveStart = StreamDescription?.LastEvaluatedShardId;
  } while (exclusiveStart);
  return shards;
}

async function invokeUntilDone(batch: DynamoDBRecord[], options: StreamPollerOptions, stopped: () => boolean): Promise<void> {
  let pending = batch;
  for (let attempt = 0; pending.length > 0 && !stopped(); attempt++) {
    if (attempt > options.retryAttempts) {
      const sequenceNumbers = pending.map((record) => record.dynamodb?.SequenceNumber).join(', ');
      options.log(`${options.functionName}: gave up on ${pending.length} stream records (sequence numbers ${sequenceNumbers})`);
      return;
    }
    if (attempt > 0) await sleep(Math.min(RETRY_BACKOFF_MS.first * 2 ** (attempt - 1), RETRY_BACKOFF_MS.max));
    const requestId = randomUUID();
    let failedFrom: number;
    try {
      const response = await options.handler({ Records: pending }, lambdaContext(options.functionName, requestId, options.timeoutMs));
      failedFrom = firstFailedIndex(pending, response);
    } catch (error) {
      options.log(`${options.functionName}: invocation failed: ${describe(error)}`);
      failedFrom = 0;
    }
    const toRetry = pending.length - failedFrom;
    options.log(`${options.functionName} ${pending.length} stream records${toRetry > 0 ? `, ${toRetry} to retry` : ''}`);
    pending = pending.slice(failedFrom);
  }
}

/** Lambda resumes a stream batch at the lowest sequence number reported as failed. */
function firstFailedIndex(batch: DynamoDBRecord[], response: DynamoDBBatchResponse | void): number {
  const failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
  const index = batch.findIndex((record) => failed.has(record.dynamodb?.SequenceNumber ?? ''));
  return index === -1 ? batch.length : index;
}

/** The stack's filter criteria (see STREAM_EVENT_FILTER), applied to a record as Lambda would. */
function passesFilter(record: DynamoDBRecord): boolean {
  const sortKey = record.dynamodb?.Keys?.[SECRETS_TABLE.sortKey]?.S;
  return (
    (STREAM_EVENT_FILTER.eventNames as readonly string[]).includes(record.eventName ?? '') &&
    sortKey !== undefined &&
    (STREAM_EVENT_FILTER.sortKeyValues as readonly string[]).includes(sortKey)
  );
}

/** The record as a Lambda event carries it: JSON attribute values, epoch-seconds timestamp. */
function lambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    ...(record.userIdentity ? { userIdentity: record.userIdentity } : {}),
    dynamodb: {
      ...(change?.ApproximateCreationDateTime
        ? { ApproximateCreationDateTime: Math.floor(change.ApproximateCreationDateTime.getTime() / 1000) }
        : {}),
      ...(change?.Keys ? { Keys: jsonImage(change.Keys) } : {}),
      ...(change?.NewImage ? { NewImage: jsonImage(change.NewImage) } : {}),
      ...(change?.OldImage ? { OldImage: jsonImage(change.OldImage) } : {}),
      ...(change?.SequenceNumber ? { SequenceNumber: change.SequenceNumber } : {}),
      ...(change?.SizeBytes !== undefined ? { SizeBytes: change.SizeBytes } : {}),
      ...(change?.StreamViewType ? { StreamViewType: change.StreamViewType } : {}),
    },
  };
}

const jsonImage = (image: Record<string, StreamAttributeValue>): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, jsonValue(value)]));

/** The SDK hands binary values over as bytes; Lambda's JSON event carries them as base64. */
function jsonValue(value: StreamAttributeValue): AttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.M !== undefined) return { M: jsonImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(jsonValue) };
  return value as AttributeValue;
}

const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
