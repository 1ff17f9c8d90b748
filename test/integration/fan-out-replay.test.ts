import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ENV } from '#lambdas/definitions/env';
import { QUEUES, WEBHOOK_HEADERS } from '#lambdas/definitions/webhooks';
import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { localDynamoDbClient } from '#local/dynamodb-local';
import { localSqsClient } from '#local/queue-service';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { api, createKey, createSecret } from '../support/api';
import { testEnv } from '../support/environment';
import { LOCAL_MODE_NODE_ARGS, type LocalServer } from '../support/local-server';
import { finishedRun, type FinishedRun } from './support/finished-run';
import { serverWithReceiverForThisFile } from './support/server-with-receiver';

/**
 * `npm run dlq -- replay` against local mode: a fan-out failure record, shaped as Lambda's
 * on-failure destination sends it, names a batch of DynamoDB Local's real stream; the command reads
 * the batch back and runs the fan-out on it, and the receiver gets the events that had not gone out.
 */

const ROOT = path.resolve(__dirname, '../..');
const SECRETS_TABLE_NAME = 'it-replay-secrets';
const DELIVERY_WAIT_MS = 15_000;

let server: LocalServer;
let receiver: WebhookReceiver;
/** The variables local mode prints for `npm run dlq -- replay`. */
let replayEnv: Record<string, string>;

serverWithReceiverForThisFile({ keysTable: 'it-replay-keys', secretsTable: SECRETS_TABLE_NAME }, (started) => {
  ({ server, receiver } = started);
  const line = /Webhook fan-out failures: (.*) npm run dlq -- replay/.exec(server.output())?.[1] ?? '';
  replayEnv = Object.fromEntries(line.split(' ').map((pair) => pair.split('=') as [string, string]));
});

const runDlq = (args: string[]): Promise<FinishedRun> =>
  finishedRun(
    spawn(process.execPath, [...LOCAL_MODE_NODE_ARGS, 'scripts/dlq.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...replayEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );

/** Every record of the secrets table's stream so far, with the shard it is in. */
async function streamRecords(): Promise<{ streamArn: string; shardId: string; records: StreamRecord[] }> {
  const dynamo = localDynamoDbClient(testEnv('dynamodbEndpoint'));
  const streams = new DynamoDBStreamsClient({ endpoint: testEnv('dynamodbEndpoint'), ...LOCAL_AWS_SETTINGS });
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: SECRETS_TABLE_NAME }));
    const streamArn = Table?.LatestStreamArn ?? '';
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const shardId = StreamDescription?.Shards?.[0]?.ShardId ?? '';
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }),
    );
    const { Records = [] } = await streams.send(new GetRecordsCommand({ ShardIterator }));
    return { streamArn, shardId, records: Records };
  } finally {
    dynamo.destroy();
    streams.destroy();
  }
}

/** As Lambda sends a batch that ran out of retries to an SQS on-failure destination (AWS Lambda developer guide). */
const onFailureRecord = (streamArn: string, shardId: string, start: string, end: string, batchSize: number) => ({
  requestContext: {
    requestId: '316aa6d0-8154-4a0e-9af7-85d5f4a6bc81',
    functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:webhook-fan-out',
    condition: 'RetryAttemptsExhausted',
    approximateInvokeCount: 11,
  },
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  version: '1.0',
  timestamp: new Date().toISOString(),
  DDBStreamBatchInfo: {
    shardId,
    startSequenceNumber: start,
    endSequenceNumber: end,
    approximateArrivalOfFirstRecord: new Date().toISOString(),
    approximateArrivalOfLastRecord: new Date().toISOString(),
    batchSize,
    streamArn,
  },
});

async function sendFailure(body: unknown): Promise<void> {
  const sqs = localSqsClient(replayEnv[ENV.sqsEndpoint] ?? '');
  try {
    await sqs.send(new SendMessageCommand({ QueueUrl: replayEnv[QUEUES.fanOutFailures.envVar], MessageBody: JSON.stringify(body) }));
  } finally {
    sqs.destroy();
  }
}

async function failuresWaiting(): Promise<number> {
  const sqs = localSqsClient(replayEnv[ENV.sqsEndpoint] ?? '');
  try {
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: replayEnv[QUEUES.fanOutFailures.envVar],
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return Number(Attributes?.ApproximateNumberOfMessages) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
  } finally {
    sqs.destroy();
  }
}

test('replay fans a failed batch out again: its event that never went out arrives, one already delivered is not sent twice', async () => {
  // No webhook yet: the fan-out drops this secret's event, as a batch it gave up on would have.
  const { key } = await createKey(undefined, server.baseUrl);
  const { id } = await createSecret(key, { data: 'cmVwbGF5ZWQ=', views: 2 }, server.baseUrl);
  // A later event, delivered: the fan-out has been past the first one by the time it arrives.
  const sentinel = await createKey({ webhook: receiver.url('/delivered') }, server.baseUrl);
  await createSecret(sentinel.key, { data: 'c2VudGluZWw=' }, server.baseUrl);
  const [delivered] = await receiver.waitFor('/delivered', 1, DELIVERY_WAIT_MS);
  expect((await api('PATCH', '/keys', { key, json: { webhook: receiver.url('/replayed') }, baseUrl: server.baseUrl })).status).toBe(200);

  const { streamArn, shardId, records } = await streamRecords();
  expect(records).toHaveLength(2);
  const sequenceNumbers = records.map((record) => record.dynamodb?.SequenceNumber ?? '');
  await sendFailure(onFailureRecord(streamArn, shardId, sequenceNumbers[0] ?? '', sequenceNumbers.at(-1) ?? '', records.length));

  const replay = await runDlq(['replay']);
  expect(replay).toEqual({ code: 0, stdout: 'replayed 1 failed batch (2 stream records fanned out again)\n', stderr: '' });
  const [replayed] = await receiver.waitFor('/replayed', 1, DELIVERY_WAIT_MS);
  expect(JSON.parse(replayed?.body ?? '{}')).toEqual({ event: 'secret.created', timestamp: expect.any(Number), data: { id } });
  expect(await failuresWaiting()).toBe(0);
  // The delivered event's copy, queued with the replayed one, is dropped (docs/webhooks.md: one delivery per event).
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(receiver.received('/delivered').map((request) => request.headers[WEBHOOK_HEADERS.eventId])).toEqual([
    delivered?.headers[WEBHOOK_HEADERS.eventId],
  ]);
});

test('a record that names no batch of the stream, or is no failure record at all, stays in the queue and fails the command', async () => {
  const { streamArn, shardId, records } = await streamRecords();
  const last = records.at(-1)?.dynamodb?.SequenceNumber ?? '0';
  const beyond = (BigInt(last) + 1000n).toString().padStart(last.length, '0');
  await sendFailure(onFailureRecord(streamArn, shardId, last, beyond, 2));
  await sendFailure({ not: 'a failure record' });

  const replay = await runDlq(['replay']);
  expect(replay.code).toBe(1);
  expect(replay.stdout).toContain('replayed 0 failed batches');
  expect(replay.stderr).toContain(`the stream holds no record ${beyond} in ${shardId}`);
  expect(replay.stderr).toContain('not a DynamoDB stream on-failure record');
  expect(await failuresWaiting()).toBe(2);
});
