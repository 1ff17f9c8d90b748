import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localSqsClient, startLocalQueueService, type LocalQueueService } from '#local/queue-service';

/**
 * The local queue service with a directory: what it held when its process died (it is never
 * stopped here, as kill -9 would not stop it) is there again for the next one on that directory.
 */

const HOUR_MS = 60 * 60 * 1000;
const MAX_RECEIVES = 2;
const queues = [
  { name: 'jobs', visibilityTimeoutMs: HOUR_MS, retentionMs: HOUR_MS, deadLetter: { name: 'dead-letters', maxReceiveCount: MAX_RECEIVES } },
  { name: 'dead-letters', visibilityTimeoutMs: HOUR_MS, retentionMs: HOUR_MS },
];

let directory: string;
const started: { service: LocalQueueService; sqs: SQSClient }[] = [];

async function start(): Promise<{ sqs: SQSClient; jobs: string; deadLetters: string }> {
  const service = await startLocalQueueService({ queues, directory });
  const sqs = localSqsClient(service.endpoint);
  started.push({ service, sqs });
  return { sqs, jobs: service.queueUrl('jobs'), deadLetters: service.queueUrl('dead-letters') };
}

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'queue-journal-'));
});

afterEach(async () => {
  for (const { service, sqs } of started.splice(0)) {
    sqs.destroy();
    await service.stop();
  }
  rmSync(directory, { recursive: true, force: true });
});

const receiveAll = async (sqs: SQSClient, QueueUrl: string) =>
  (await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['ApproximateReceiveCount'] })))
    .Messages ?? [];

test('sent, received and dead-lettered messages outlive the process; deleted ones stay deleted', async () => {
  const first = await start();
  for (const body of ['in flight', 'delivered', 'dead']) {
    await first.sqs.send(new SendMessageCommand({ QueueUrl: first.jobs, MessageBody: body }));
  }
  // Each received and hidden for an hour; then 'delivered' is deleted and 'dead' received to its limit.
  const received = await receiveAll(first.sqs, first.jobs);
  expect(received.map((message) => message.Body)).toEqual(['in flight', 'delivered', 'dead']);
  const handleOf = (messages: typeof received, body: string): string => messages.find((message) => message.Body === body)?.ReceiptHandle ?? '';
  await first.sqs.send(new DeleteMessageCommand({ QueueUrl: first.jobs, ReceiptHandle: handleOf(received, 'delivered') }));
  const release = (ReceiptHandle: string) =>
    first.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: first.jobs, ReceiptHandle, VisibilityTimeout: 0 }));
  await release(handleOf(received, 'dead'));
  await release(handleOf(await receiveAll(first.sqs, first.jobs), 'dead'));
  // This receive moves 'dead' to the dead-letter queue, past its maxReceiveCount.
  expect(await receiveAll(first.sqs, first.jobs)).toEqual([]);
  await first.sqs.send(new SendMessageCommand({ QueueUrl: first.jobs, MessageBody: 'pending' }));

  // The consumers of the first process died with it: their leases end, so 'in flight' is back at once.
  const second = await start();
  const restored = await receiveAll(second.sqs, second.jobs);
  expect(restored.map((message) => [message.Body, message.Attributes?.ApproximateReceiveCount])).toEqual([
    ['in flight', '2'],
    ['pending', '1'],
  ]);
  const deadLetters = await receiveAll(second.sqs, second.deadLetters);
  expect(deadLetters.map((message) => [message.Body, message.Attributes?.ApproximateReceiveCount])).toEqual([['dead', '3']]);
});

test('a retry delay set by ChangeMessageVisibility still holds after a restart', async () => {
  const first = await start();
  await first.sqs.send(new SendMessageCommand({ QueueUrl: first.jobs, MessageBody: 'retry later' }));
  const [message] = await receiveAll(first.sqs, first.jobs);
  await first.sqs.send(
    new ChangeMessageVisibilityCommand({ QueueUrl: first.jobs, ReceiptHandle: message?.ReceiptHandle ?? '', VisibilityTimeout: 3600 }),
  );

  const second = await start();
  expect(await receiveAll(second.sqs, second.jobs)).toEqual([]);
});

test('a last change cut short by the process dying mid-write is left out; the rest is kept', async () => {
  const first = await start();
  await first.sqs.send(new SendMessageCommand({ QueueUrl: first.jobs, MessageBody: 'kept' }));
  const log = path.join(directory, 'queues.log');
  expect(readFileSync(log, 'utf8')).toMatch(/\n$/);
  appendFileSync(log, '{"queue":"jobs","put":{"messageId":"torn","bo');

  const second = await start();
  expect((await receiveAll(second.sqs, second.jobs)).map((received) => received.Body)).toEqual(['kept']);
});

test('the log is folded into the snapshot at start, so a restart replays only what came after', async () => {
  const first = await start();
  await first.sqs.send(new SendMessageCommand({ QueueUrl: first.jobs, MessageBody: 'one' }));
  await start();
  expect(readFileSync(path.join(directory, 'queues.log'), 'utf8')).toBe('');
  expect(JSON.parse(readFileSync(path.join(directory, 'queues.json'), 'utf8'))).toMatchObject({
    queues: { jobs: [{ body: 'one' }] },
  });
});
