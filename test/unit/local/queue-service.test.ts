import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  MessageNotInflight,
  QueueDoesNotExist,
  ReceiptHandleIsInvalid,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
  TooManyEntriesInBatchRequest,
  type Message,
} from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import { startLocalQueueService, type LocalQueueService } from '#local/queue-service';
import { jobQueuesForEachTest } from '../support/job-queues';

/**
 * The local queue service, driven by the real SQS client over its real protocol: what the
 * webhook handlers and the DLQ tool see in local mode must be what they see on AWS.
 */

const VISIBILITY_MS = 200;
const MAX_RECEIVES = 2;

let service: LocalQueueService;
let sqs: SQSClient;
let jobsUrl: string;
let deadLettersUrl: string;

jobQueuesForEachTest(
  {
    visibilityTimeoutMs: VISIBILITY_MS,
    maxReceiveCount: MAX_RECEIVES,
    otherQueues: [{ name: 'short-lived', visibilityTimeoutMs: VISIBILITY_MS, retentionMs: 300 }],
  },
  (queues) => ({ service, sqs, jobsUrl, deadLettersUrl } = queues),
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

const send = (body: string, queueUrl = jobsUrl) => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));

interface ReceiveOptions {
  max?: number;
  waitSeconds?: number;
  visibilitySeconds?: number;
}

async function receive(queueUrl = jobsUrl, options: ReceiveOptions = {}): Promise<Message[]> {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: options.max ?? 10,
      WaitTimeSeconds: options.waitSeconds ?? 0,
      VisibilityTimeout: options.visibilitySeconds,
      MessageSystemAttributeNames: ['All'],
    }),
  );
  return Messages;
}

async function receiveOne(queueUrl = jobsUrl, options: Omit<ReceiveOptions, 'max'> = {}): Promise<Message> {
  const [message, ...more] = await receive(queueUrl, { ...options, max: 1 });
  if (!message || more.length > 0) throw new Error(`expected one message, got ${more.length + (message ? 1 : 0)}`);
  return message;
}

const changeVisibility = (receiptHandle: string | undefined, seconds: number) =>
  sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: jobsUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));

const counts = (visible: number, inFlight: number) => ({
  ApproximateNumberOfMessages: String(visible),
  ApproximateNumberOfMessagesNotVisible: String(inFlight),
});

async function attributes(queueUrl = jobsUrl): Promise<Record<string, string>> {
  const { Attributes = {} } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }));
  return Attributes;
}

test('a sent message comes back with its id, body, MD5 and system attributes; the SDK checks the MD5s', async () => {
  const body = '{"eventId":"evt_1"} ünïcödé 🔑';
  const before = Date.now();
  const sent = await send(body);
  expect(sent.MD5OfMessageBody).toBe(md5(body));

  const message = await receiveOne();
  expect(message).toMatchObject({ MessageId: sent.MessageId, Body: body, MD5OfBody: md5(body) });
  expect(message.Attributes).toMatchObject({ ApproximateReceiveCount: '1', SenderId: expect.any(String) });
  expect(Number(message.Attributes?.SentTimestamp)).toBeGreaterThanOrEqual(before);
  const { SentTimestamp, ApproximateFirstReceiveTimestamp } = message.Attributes ?? {};
  expect(Number(ApproximateFirstReceiveTimestamp)).toBeGreaterThanOrEqual(Number(SentTimestamp));
});

test('legacy AttributeNames ask for system attributes too, and none are sent unasked', async () => {
  await send('a');
  await send('b');
  const asked = await sqs.send(new ReceiveMessageCommand({ QueueUrl: jobsUrl, AttributeNames: ['All'] }));
  expect(Object.keys(asked.Messages?.[0]?.Attributes ?? {}).sort()).toEqual([
    'ApproximateFirstReceiveTimestamp',
    'ApproximateReceiveCount',
    'SenderId',
    'SentTimestamp',
  ]);
  const unasked = await sqs.send(new ReceiveMessageCommand({ QueueUrl: jobsUrl }));
  expect(unasked.Messages?.[0]?.Attributes).toBeUndefined();
});

test('a batch send reports each entry, and a bad entry fails alone', async () => {
  const result = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: jobsUrl,
      Entries: [
        { Id: 'first', MessageBody: 'one' },
        { Id: 'bad', MessageBody: 'nul \u0000 is not allowed' },
        { Id: 'third', MessageBody: 'three' },
      ],
    }),
  );
  expect(result.Successful?.map((entry) => [entry.Id, entry.MD5OfMessageBody])).toEqual([
    ['first', md5('one')],
    ['third', md5('three')],
  ]);
  expect(result.Failed).toEqual([expect.objectContaining({ Id: 'bad', SenderFault: true, Code: 'InvalidMessageContents' })]);
  expect((await receive()).map((message) => message.Body).sort()).toEqual(['one', 'three']);
});

test('a batch of more than ten entries is refused whole', async () => {
  const entries = Array.from({ length: 11 }, (_, index) => ({ Id: `m${index}`, MessageBody: 'x' }));
  await expect(sqs.send(new SendMessageBatchCommand({ QueueUrl: jobsUrl, Entries: entries }))).rejects.toBeInstanceOf(TooManyEntriesInBatchRequest);
  expect(await receive()).toEqual([]);
});

test('a received message stays hidden for the visibility timeout, then comes back with receive count 2', async () => {
  await send('job');
  const first = await receiveOne();
  expect(await receive()).toEqual([]);
  expect(await attributes()).toMatchObject(counts(0, 1));

  await sleep(VISIBILITY_MS + 100);
  const again = await receiveOne();
  expect(again.MessageId).toBe(first.MessageId);
  expect(again.ReceiptHandle).not.toBe(first.ReceiptHandle);
  expect(again.Attributes?.ApproximateReceiveCount).toBe('2');
  expect(again.Attributes?.ApproximateFirstReceiveTimestamp).toBe(first.Attributes?.ApproximateFirstReceiveTimestamp);
});

test('ChangeMessageVisibility to 0 makes a message receivable at once', async () => {
  await send('job');
  const first = await receiveOne(jobsUrl, { visibilitySeconds: 60 });
  await changeVisibility(first.ReceiptHandle, 0);
  expect((await receiveOne()).MessageId).toBe(first.MessageId);
});

test('ChangeMessageVisibility to N seconds hides it N seconds; a long poll wakes when it is back', async () => {
  await send('job');
  const first = await receiveOne();
  const changedAt = Date.now();
  await changeVisibility(first.ReceiptHandle, 1);

  await sleep(VISIBILITY_MS + 100);
  expect(await receive()).toEqual([]);
  const again = await receiveOne(jobsUrl, { waitSeconds: 3 });
  expect(again.MessageId).toBe(first.MessageId);
  expect(Date.now() - changedAt).toBeGreaterThanOrEqual(950);
  // Short of the poll's 3 s wait, whatever the machine's load: the message's return woke it.
  expect(Date.now() - changedAt).toBeLessThan(2_900);
});

test('ChangeMessageVisibility cannot hide a message past 12 hours after its receive, as SQS refuses', async () => {
  const twelveHours = 12 * 60 * 60;
  await send('job');
  const { ReceiptHandle } = await receiveOne();
  await changeVisibility(ReceiptHandle, twelveHours);

  // Whole seconds count: a second after the receive, only 12 hours less a second remain.
  await sleep(1_100);
  await expect(changeVisibility(ReceiptHandle, twelveHours)).rejects.toMatchObject({
    name: 'InvalidParameterValue',
    message: expect.stringContaining('beyond the limit'),
  });
  const batch = await sqs.send(
    new ChangeMessageVisibilityBatchCommand({
      QueueUrl: jobsUrl,
      Entries: [{ Id: 'late', ReceiptHandle, VisibilityTimeout: twelveHours }],
    }),
  );
  expect(batch.Failed).toEqual([expect.objectContaining({ Id: 'late', Code: 'InvalidParameterValue' })]);
  await changeVisibility(ReceiptHandle, twelveHours - 1);
});

test('a receipt handle that is not the latest one cannot change visibility, nor delete the message', async () => {
  await send('job');
  const stale = await receiveOne();
  await sleep(VISIBILITY_MS + 100);
  await receiveOne(jobsUrl, { visibilitySeconds: 0 });

  await expect(changeVisibility(stale.ReceiptHandle, 0)).rejects.toBeInstanceOf(ReceiptHandleIsInvalid);
  // SQS: with an old handle the delete "succeeds, but the message will not be deleted".
  await sqs.send(new DeleteMessageCommand({ QueueUrl: jobsUrl, ReceiptHandle: stale.ReceiptHandle }));
  expect(await attributes()).toMatchObject({ ApproximateNumberOfMessages: '1' });
});

test('a message whose visibility ran out is not in flight; a deleted one has no valid handle', async () => {
  await send('job');
  const { ReceiptHandle } = await receiveOne();
  await sleep(VISIBILITY_MS + 100);
  await expect(changeVisibility(ReceiptHandle, 10)).rejects.toBeInstanceOf(MessageNotInflight);

  const latest = await receiveOne();
  await sqs.send(new DeleteMessageCommand({ QueueUrl: jobsUrl, ReceiptHandle: latest.ReceiptHandle }));
  await expect(changeVisibility(latest.ReceiptHandle, 10)).rejects.toBeInstanceOf(ReceiptHandleIsInvalid);
  await expect(sqs.send(new DeleteMessageCommand({ QueueUrl: jobsUrl, ReceiptHandle: 'not-a-receipt-handle' }))).rejects.toBeInstanceOf(
    ReceiptHandleIsInvalid,
  );
});

test('batch delete and batch visibility change report each entry', async () => {
  await send('a');
  await send('b');
  const [a, b] = await receive(jobsUrl, { visibilitySeconds: 60 });
  const changed = await sqs.send(
    new ChangeMessageVisibilityBatchCommand({
      QueueUrl: jobsUrl,
      Entries: [
        { Id: 'a', ReceiptHandle: a?.ReceiptHandle, VisibilityTimeout: 0 },
        { Id: 'garbage', ReceiptHandle: 'not-a-receipt-handle', VisibilityTimeout: 0 },
      ],
    }),
  );
  expect(changed.Successful).toEqual([{ Id: 'a' }]);
  expect(changed.Failed).toEqual([expect.objectContaining({ Id: 'garbage', Code: 'ReceiptHandleIsInvalid' })]);

  const deleted = await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: jobsUrl, Entries: [{ Id: 'b', ReceiptHandle: b?.ReceiptHandle }] }));
  expect(deleted.Successful).toEqual([{ Id: 'b' }]);
  expect((await receive()).map((message) => message.Body)).toEqual(['a']);
  expect(await attributes()).toMatchObject(counts(0, 1));
});

test('after maxReceiveCount receives, the next receive moves the message to the dead-letter queue', async () => {
  const sent = await send('{"eventId":"evt_dead"}');
  for (let receives = 1; receives <= MAX_RECEIVES; receives++) {
    const message = await receiveOne(jobsUrl, { visibilitySeconds: 0 });
    expect(message.Attributes?.ApproximateReceiveCount).toBe(String(receives));
  }
  expect(await receive()).toEqual([]);
  expect(await attributes()).toMatchObject(counts(0, 0));

  const dead = await receiveOne(deadLettersUrl);
  expect(dead).toMatchObject({
    MessageId: sent.MessageId,
    Body: '{"eventId":"evt_dead"}',
    MD5OfBody: sent.MD5OfMessageBody,
  });
  expect(dead.Attributes?.DeadLetterQueueSourceArn).toBe('arn:aws:sqs:us-east-1:000000000000:jobs');
});

test('a long poll returns as soon as a message arrives', async () => {
  const started = Date.now();
  setTimeout(() => void send('late'), 300);
  // Far from the 20 s wait, whatever the machine's load: the message ended the poll, not its wait time.
  const message = await receiveOne(jobsUrl, { waitSeconds: 20 });
  expect(message.Body).toBe('late');
  expect(Date.now() - started).toBeLessThan(10_000);
});

test('a long poll with nothing to receive answers empty after its wait time', async () => {
  const started = Date.now();
  expect(await receive(jobsUrl, { waitSeconds: 1 })).toEqual([]);
  expect(Date.now() - started).toBeGreaterThanOrEqual(950);
});

test('stopping the service ends a long poll at once', async () => {
  const started = Date.now();
  const poll = receive(jobsUrl, { waitSeconds: 20 });
  await sleep(100);
  await service.stop();
  await expect(poll).rejects.toThrow();
  // Half the 20 s wait, whatever the machine's load: the stop ended the poll, not its wait time.
  expect(Date.now() - started).toBeLessThan(10_000);
});

test('messages older than the retention period disappear, received or not', async () => {
  const queueUrl = service.queueUrl('short-lived');
  await send('never received', queueUrl);
  await send('received once', queueUrl);
  await receiveOne(queueUrl, { visibilitySeconds: 0 });
  await sleep(400);
  expect(await receive(queueUrl)).toEqual([]);
  expect(await attributes(queueUrl)).toMatchObject(counts(0, 0));
});

test('a delayed message is counted as delayed and not received before its delay', async () => {
  await sqs.send(new SendMessageCommand({ QueueUrl: jobsUrl, MessageBody: 'later', DelaySeconds: 1 }));
  expect(await receive()).toEqual([]);
  expect(await attributes()).toMatchObject({ ...counts(0, 0), ApproximateNumberOfMessagesDelayed: '1' });
});

test('queue attributes describe the queue and its redrive policy', async () => {
  expect(await attributes()).toMatchObject({
    QueueArn: 'arn:aws:sqs:us-east-1:000000000000:jobs',
    VisibilityTimeout: '1',
    MessageRetentionPeriod: '60',
  });
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: jobsUrl, AttributeNames: ['RedrivePolicy'] }));
  expect(JSON.parse(Attributes?.RedrivePolicy ?? '')).toEqual({
    deadLetterTargetArn: 'arn:aws:sqs:us-east-1:000000000000:dead-letters',
    maxReceiveCount: MAX_RECEIVES,
  });
});

test('a queue URL the service does not know is QueueDoesNotExist', async () => {
  await expect(send('x', `${service.endpoint}/000000000000/nope`)).rejects.toBeInstanceOf(QueueDoesNotExist);
});

test('an action the service does not implement gets a clear error naming it', async () => {
  const response = await fetch(service.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.CreateQueue' },
    body: JSON.stringify({ QueueName: 'new' }),
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({
    __type: 'com.amazonaws.sqs#UnsupportedOperation',
    message: expect.stringContaining('CreateQueue'),
  });
});

test('a dead-letter queue that is not defined is refused at start', async () => {
  await expect(
    startLocalQueueService({
      queues: [
        {
          name: 'orphan',
          visibilityTimeoutMs: 1_000,
          retentionMs: 1_000,
          deadLetter: { name: 'missing', maxReceiveCount: 1 },
        },
      ],
    }),
  ).rejects.toThrow('queue does not exist: missing');
});
