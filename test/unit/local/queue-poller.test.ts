import { GetQueueAttributesCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createHash } from 'node:crypto';
import type { Poller } from '#local/poller-support';
import { startQueuePoller, type QueuePollerOptions } from '#local/queue-poller';
import { localSqsClient, startLocalQueueService, type LocalQueueService } from '#local/queue-service';
import { eventually } from '#test/support/eventually';

/**
 * Local mode's stand-in for Lambda's SQS event source mapping with ReportBatchItemFailures,
 * against the local queue service: what it deletes, what it leaves to come back, and the event.
 */

const VISIBILITY_MS = 300;
const QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:jobs';

let service: LocalQueueService;
let sqs: SQSClient;
let queueUrl: string;
let poller: Poller | undefined;
let logLines: string[];
let invocations: { event: SQSEvent; context: Context }[];

beforeEach(async () => {
  service = await startLocalQueueService({
    queues: [
      { name: 'jobs', visibilityTimeoutMs: VISIBILITY_MS, retentionMs: 60_000 },
      // For tests where a message must not come back while its invocation runs, however slowly.
      { name: 'held', visibilityTimeoutMs: 60_000, retentionMs: 60_000 },
    ],
  });
  sqs = localSqsClient(service.endpoint);
  queueUrl = service.queueUrl('jobs');
  logLines = [];
  invocations = [];
});

afterEach(async () => {
  await poller?.stop();
  poller = undefined;
  sqs.destroy();
  await service.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sent in one batch before the poller starts, so its first receive gets them all. */
async function sendAll(...bodies: string[]): Promise<string[]> {
  const { Successful = [] } = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((body, index) => ({ Id: String(index), MessageBody: body })),
    }),
  );
  return [...Successful].sort((a, b) => Number(a.Id) - Number(b.Id)).map((entry) => entry.MessageId ?? '');
}

function poll(handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>, overrides: Partial<QueuePollerOptions> = {}): void {
  poller = startQueuePoller({
    client: sqs,
    queueUrl,
    queueArn: QUEUE_ARN,
    functionName: 'webhook-delivery',
    batchSize: 10,
    maxConcurrency: 1,
    pollers: 1,
    timeoutMs: 5_000,
    handler: (event, context) => {
      invocations.push({ event, context });
      return handler(event);
    },
    log: (line) => logLines.push(line),
    ...overrides,
  });
}

async function queueCounts(): Promise<{ visible: number; inFlight: number }> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return {
    visible: Number(Attributes.ApproximateNumberOfMessages),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible),
  };
}

const bodiesOf = (invocation: { event: SQSEvent } | undefined) => invocation?.event.Records.map((record) => record.body);

test('the handler gets the event Lambda builds, and a batch without failures is deleted', async () => {
  const before = Date.now();
  const [id] = await sendAll('{"job":1}', '{"job":2}');
  poll(async () => undefined);

  await eventually(async () => expect(await queueCounts()).toEqual({ visible: 0, inFlight: 0 }));
  expect(invocations).toHaveLength(1);
  const [invocation] = invocations;
  expect(bodiesOf(invocation)).toEqual(['{"job":1}', '{"job":2}']);
  expect(invocation?.event.Records[0]).toEqual({
    messageId: id,
    receiptHandle: expect.any(String),
    body: '{"job":1}',
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: expect.stringMatching(/^\d+$/),
      SenderId: expect.any(String),
      ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d+$/),
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update('{"job":1}').digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: QUEUE_ARN,
    awsRegion: 'us-east-1',
  });
  expect(Number(invocation?.event.Records[0]?.attributes.SentTimestamp)).toBeGreaterThanOrEqual(before);
  expect(invocation?.context.functionName).toBe('webhook-delivery');
  expect(invocation?.context.getRemainingTimeInMillis()).toBeLessThanOrEqual(5_000);
  expect(logLines).toEqual([expect.stringMatching(/^webhook-delivery 2 messages \d+ms$/)]);
});

test('reported failures are left in the queue and come back; the rest are deleted', async () => {
  const [, failingId] = await sendAll('succeeds', 'fails once');
  let firstCall = true;
  poll(async () => {
    if (!firstCall) return { batchItemFailures: [] };
    firstCall = false;
    return { batchItemFailures: [{ itemIdentifier: failingId ?? '' }] };
  });

  await eventually(() => expect(invocations).toHaveLength(2));
  expect(bodiesOf(invocations[0])).toEqual(['succeeds', 'fails once']);
  expect(bodiesOf(invocations[1])).toEqual(['fails once']);
  expect(invocations[1]?.event.Records[0]?.attributes.ApproximateReceiveCount).toBe('2');
  await eventually(async () => expect(await queueCounts()).toEqual({ visible: 0, inFlight: 0 }));
  expect(logLines[0]).toMatch(/^webhook-delivery 2 messages, 1 failed \d+ms$/);
  expect(logLines[1]).toMatch(/^webhook-delivery 1 message \d+ms$/);
});

test('when the handler throws, nothing is deleted and the whole batch comes back', async () => {
  await sendAll('a', 'b');
  poll(async () => {
    if (invocations.length === 1) throw new Error('receiver unreachable');
  });

  await eventually(() => expect(invocations).toHaveLength(2));
  expect(bodiesOf(invocations[1])).toEqual(['a', 'b']);
  expect(invocations[1]?.event.Records.map((record) => record.attributes.ApproximateReceiveCount)).toEqual(['2', '2']);
  expect(logLines[0]).toMatch(/^webhook-delivery 2 messages, 2 failed \(handler threw Error: receiver unreachable\)/);
});

test('a failure naming a message not in the batch fails the whole batch, as on Lambda', async () => {
  await sendAll('a', 'b');
  poll(async () => (invocations.length === 1 ? { batchItemFailures: [{ itemIdentifier: 'no-such-message' }] } : undefined));

  await eventually(() => expect(invocations).toHaveLength(2));
  expect(bodiesOf(invocations[1])).toEqual(['a', 'b']);
  expect(logLines[0]).toMatch(/2 failed \(batchItemFailures names a message not in the batch\)/);
});

test('a handler that outlives its timeout fails its batch', async () => {
  await sendAll('slow');
  poll(() => sleep(invocations.length === 1 ? 250 : 0).then(() => undefined), { timeoutMs: 100 });

  await eventually(() => expect(invocations).toHaveLength(2));
  expect(logLines[0]).toMatch(/^webhook-delivery 1 message, 1 failed \(timed out\)/);
  await eventually(async () => expect(await queueCounts()).toEqual({ visible: 0, inFlight: 0 }));
});

test('several pollers share the queue, each message handled once', async () => {
  queueUrl = service.queueUrl('held');
  const bodies = Array.from({ length: 10 }, (_, index) => `job ${index}`);
  await sendAll(...bodies);
  poll(() => sleep(50).then(() => undefined), { batchSize: 2, pollers: 3, maxConcurrency: 3 });

  await eventually(async () => expect(await queueCounts()).toEqual({ visible: 0, inFlight: 0 }));
  expect(invocations.flatMap(bodiesOf).sort()).toEqual(bodies.sort());
  expect(Math.max(...invocations.map((invocation) => invocation.event.Records.length))).toBeLessThanOrEqual(2);
});

test('a slow batch holds up only itself: the next one is handled while it runs, as on Lambda', async () => {
  queueUrl = service.queueUrl('held');
  await sendAll('slow');
  let releaseSlow = (): void => undefined;
  const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));
  const handled: string[] = [];
  poll(
    async (event) => {
      const body = bodiesOf({ event })?.[0];
      if (body === 'slow') await slowReleased;
      handled.push(body ?? '');
    },
    { batchSize: 1, pollers: 1, maxConcurrency: 4 },
  );
  await eventually(() => expect(invocations).toHaveLength(1));
  await sendAll('fast');
  // One poller, and the slow invocation still running: the fast one is handled all the same.
  await eventually(() => expect(handled).toEqual(['fast']));
  releaseSlow();
  await eventually(() => expect(handled).toEqual(['fast', 'slow']));
  await eventually(async () => expect(await queueCounts()).toEqual({ visible: 0, inFlight: 0 }));
});

test('at maxConcurrency the pollers stop receiving, so nothing is hidden without being worked on', async () => {
  queueUrl = service.queueUrl('held');
  await sendAll('a', 'b', 'c');
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  poll(() => released, { batchSize: 1, pollers: 2, maxConcurrency: 2 });
  await eventually(() => expect(invocations).toHaveLength(2));
  await sleep(200);
  expect(invocations).toHaveLength(2);
  expect(await queueCounts()).toEqual({ visible: 1, inFlight: 2 });
  release();
  await eventually(async () => expect(await queueCounts()).toEqual({ visible: 0, inFlight: 0 }));
  expect(invocations.flatMap(bodiesOf).sort()).toEqual(['a', 'b', 'c']);
});

test('a failing receive backs off instead of spinning', async () => {
  queueUrl = `${service.endpoint}/000000000000/missing`;
  poll(async () => undefined);
  await sleep(600);
  // Backoff 100, 200, 400 ms: three or four failures in 600 ms, not hundreds.
  expect(logLines.length).toBeGreaterThanOrEqual(2);
  expect(logLines.length).toBeLessThanOrEqual(5);
  expect(logLines[0]).toMatch(/^webhook-delivery: polling failed: QueueDoesNotExist/);
});

test('stop() ends a long poll at once', async () => {
  poll(async () => undefined, { pollers: 2 });
  await sleep(100);
  const stopping = Date.now();
  await poller?.stop();
  // Half the 20 s long poll, whatever the machine's load: the stop ended it, not its wait time.
  expect(Date.now() - stopping).toBeLessThan(10_000);
  expect(logLines).toEqual([]);
});
