import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type GetShardIteratorCommandInput,
  type _Record as StreamRecord,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { SECRET_HEAD_SK } from '#lambdas/definitions/tables';
import type { Poller } from '#local/poller-support';
import { startStreamPoller, type StreamPollerOptions } from '#local/stream-poller';
import { eventually } from '#test/support/eventually';

/**
 * Local mode's stand-in for Lambda's DynamoDB stream event source mapping, against a scripted
 * stream: the cases DynamoDB Local cannot be made to produce on demand.
 */

const STREAM_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/local-Secrets/stream/2026-01-01T00:00:00.000';
const streams = mockClient(DynamoDBStreamsClient);

let poller: Poller | undefined;
let logLines: string[];
let delivered: string[];

beforeEach(() => {
  streams.reset();
  logLines = [];
  delivered = [];
});

afterEach(async () => {
  await poller?.stop();
  poller = undefined;
});

afterAll(() => streams.restore());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A secret head INSERT, which the stack's filter criteria let through. */
const record = (pk: string, sequenceNumber: string, created = new Date()): StreamRecord => ({
  eventID: `event-${sequenceNumber}`,
  eventName: 'INSERT',
  dynamodb: {
    Keys: { pk: { S: pk }, sk: { S: SECRET_HEAD_SK } },
    SequenceNumber: sequenceNumber,
    ApproximateCreationDateTime: created,
  },
});

/** Iterators name where they were asked for, so GetRecords can be scripted by them. */
const iteratorFor = ({ ShardId, ShardIteratorType, SequenceNumber }: GetShardIteratorCommandInput): string =>
  [ShardId, ShardIteratorType, SequenceNumber].filter(Boolean).join(':');

function serveShards(...listings: Shard[][]): void {
  let call = 0;
  streams.on(DescribeStreamCommand).callsFake(() => ({
    StreamDescription: { Shards: listings[Math.min(call++, listings.length - 1)] },
  }));
  streams.on(GetShardIteratorCommand).callsFake((input: GetShardIteratorCommandInput) => ({
    ShardIterator: iteratorFor(input),
  }));
}

async function start(overrides: Partial<StreamPollerOptions> = {}): Promise<void> {
  poller = await startStreamPoller({
    endpoint: 'http://127.0.0.1:1',
    streamArn: STREAM_ARN,
    functionName: 'webhook-fan-out',
    batchSize: 100,
    retryAttempts: 2,
    timeoutMs: 1_000,
    startingPosition: 'TRIM_HORIZON',
    pollIntervalMs: 10,
    handler: async (event: DynamoDBStreamEvent) => {
      delivered.push(...event.Records.map((each) => each.dynamodb?.Keys?.pk?.S ?? ''));
    },
    log: (line) => logLines.push(line),
    ...overrides,
  });
}

test('a LATEST start whose iterator is lost before any record reads the shard again, less what came before the start', async () => {
  serveShards([{ ShardId: 'shard-1' }]);
  const twoMinutesAgo = new Date(Date.now() - 120_000);
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:LATEST' }).rejects(new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:TRIM_HORIZON' }).resolves({
    Records: [record('before-start', '1', twoMinutesAgo), record('after-start', '2', new Date(Date.now() + 1_000))],
    NextShardIterator: 'shard-1:rest',
  });
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:rest' }).resolves({ Records: [], NextShardIterator: 'shard-1:rest' });

  await start({ startingPosition: 'LATEST' });

  await eventually(() => expect(delivered).toEqual(['after-start']));
  await sleep(50);
  expect(delivered).toEqual(['after-start']);
});

test('a closed shard keeps the poller looking for its child until DescribeStream lists it', async () => {
  const parent: Shard = { ShardId: 'shard-1' };
  const child: Shard = { ShardId: 'shard-2', ParentShardId: 'shard-1' };
  // Closed at once; its child shows up only on the third listing.
  serveShards([parent], [parent], [parent, child]);
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:TRIM_HORIZON' }).resolves({ Records: [] });
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-2:TRIM_HORIZON' }).resolves({
    Records: [record('in-child', '5')],
    NextShardIterator: 'shard-2:rest',
  });
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-2:rest' }).resolves({ Records: [], NextShardIterator: 'shard-2:rest' });

  await start();

  await eventually(() => expect(delivered).toEqual(['in-child']));
  const listings = streams.commandCalls(DescribeStreamCommand).length;
  expect(listings).toBe(3);
  await sleep(50);
  expect(streams.commandCalls(DescribeStreamCommand)).toHaveLength(listings);
});

test('an invocation that outlasts the timeout fails its batch, which is retried and then given up on', async () => {
  serveShards([{ ShardId: 'shard-1' }]);
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:TRIM_HORIZON' }).resolves({
    Records: [record('slow', '1')],
    NextShardIterator: 'shard-1:rest',
  });
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:rest' }).resolves({ Records: [], NextShardIterator: 'shard-1:rest' });
  let invocations = 0;

  await start({
    timeoutMs: 50,
    retryAttempts: 1,
    handler: () => {
      invocations += 1;
      return new Promise(() => undefined);
    },
  });

  await eventually(() => expect(logLines).toContainEqual(expect.stringMatching(/gave up on 1 stream records/)));
  expect(invocations).toBe(2);
  expect(logLines.filter((line) => line.includes('invocation timed out after 50 ms'))).toHaveLength(2);
});

test('failing stream reads back off, and stop() does not wait out the backoff', async () => {
  serveShards([{ ShardId: 'shard-1' }]);
  streams.on(GetRecordsCommand).rejects(new Error('connection refused'));

  await start();

  await eventually(() => expect(logLines.length).toBeGreaterThanOrEqual(4), 5_000);
  expect(logLines.slice(0, 4).map((line) => /again in (\d+) ms/.exec(line)?.[1])).toEqual(['100', '200', '400', '800']);
  const stopping = Date.now();
  await poller?.stop();
  poller = undefined;
  // Half the next backoff (1,600 ms), whatever the machine's load: the stop did not wait it out.
  expect(Date.now() - stopping).toBeLessThan(800);
});

test('records given up on are handed over with their shard, and reading goes on past them', async () => {
  serveShards([{ ShardId: 'shard-1' }]);
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:TRIM_HORIZON' }).resolves({
    Records: [record('fine', '1'), record('poison', '2')],
    NextShardIterator: 'shard-1:next',
  });
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:next' }).resolves({
    Records: [record('after', '3')],
    NextShardIterator: 'shard-1:rest',
  });
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:rest' }).resolves({ Records: [], NextShardIterator: 'shard-1:rest' });
  const givenUp: { shardId: string; keys: string[]; invocations: number }[] = [];

  await start({
    retryAttempts: 1,
    handler: async (event: DynamoDBStreamEvent) => {
      const failed = event.Records.filter((each) => each.dynamodb?.Keys?.pk?.S === 'poison');
      delivered.push(...event.Records.filter((each) => !failed.includes(each)).map((each) => each.dynamodb?.Keys?.pk?.S ?? ''));
      return { batchItemFailures: failed.map((each) => ({ itemIdentifier: each.dynamodb?.SequenceNumber ?? '' })) };
    },
    onGiveUp: async ({ shardId, records, invocations }) => {
      givenUp.push({ shardId, keys: records.map((each) => each.dynamodb?.Keys?.pk?.S ?? ''), invocations });
    },
  });

  await eventually(() => expect(delivered).toEqual(['fine', 'after']));
  expect(givenUp).toEqual([{ shardId: 'shard-1', keys: ['poison'], invocations: 2 }]);
});

test('a checkpoint resumes each shard it knows after its sequence number, and is saved once a batch is done', async () => {
  serveShards([{ ShardId: 'shard-1' }, { ShardId: 'shard-2' }]);
  // The general answer first: aws-sdk-client-mock lets later, narrower ones take precedence.
  streams.on(GetRecordsCommand).resolves({ Records: [], NextShardIterator: 'shard-1:rest' });
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-1:AFTER_SEQUENCE_NUMBER:7' }).resolves({
    Records: [record('after-checkpoint', '8')],
    NextShardIterator: 'shard-1:rest',
  });
  streams.on(GetRecordsCommand, { ShardIterator: 'shard-2:LATEST' }).resolves({
    Records: [record('new-shard', '20')],
    NextShardIterator: 'shard-2:rest',
  });
  const saved = new Map([['shard-1', '7']]);
  const saves: string[] = [];

  await start({
    startingPosition: 'LATEST',
    checkpoint: {
      positionOf: (shardId) => saved.get(shardId),
      save: (shardId, sequenceNumber) => {
        // Saved only once the batch's invocation is over.
        saves.push(`${shardId}@${sequenceNumber} after ${delivered.join(',')}`);
        saved.set(shardId, sequenceNumber);
      },
    },
  });

  await eventually(() =>
    expect(saved).toEqual(
      new Map([
        ['shard-1', '8'],
        ['shard-2', '20'],
      ]),
    ),
  );
  expect(delivered).toEqual(['after-checkpoint', 'new-shard']);
  expect(saves).toEqual(['shard-1@8 after after-checkpoint', 'shard-2@20 after after-checkpoint,new-shard']);
});
