import {
  ChangeMessageVisibilityBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describeDeadLetter, listDeadLetters, peekDeadLetters, redriveDeadLetters } from '#scripts/dlq-commands';
import type { LocalQueueService } from '#local/queue-service';
import { jobQueuesForEachTest } from '../support/job-queues';

/** `npm run dlq`: listing and redriving the webhook dead letters, here against the local queue service. */

const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

let service: LocalQueueService;
let sqs: SQSClient;
let jobsUrl: string;
let deadLettersUrl: string;

jobQueuesForEachTest({ visibilityTimeoutMs: 60_000, maxReceiveCount: 4 }, (queues) => ({ service, sqs, jobsUrl, deadLettersUrl } = queues));

const SECRET_ID = 'sEcReTiDtHaTiSaCaPaBiLiTy';
const job = (eventId: string, event: string, timestamp: number) =>
  JSON.stringify({ eventId, owner: 'owner-hash', event: { event, timestamp, data: { id: SECRET_ID } } });

async function sendDeadLetters(...bodies: string[]): Promise<void> {
  for (let start = 0; start < bodies.length; start += 10) {
    const entries = bodies.slice(start, start + 10).map((body, index) => ({ Id: String(index), MessageBody: body }));
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: deadLettersUrl, Entries: entries }));
  }
}

async function visibleCount(queueUrl: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  expect(Attributes?.ApproximateNumberOfMessagesNotVisible).toBe('0');
  return Number(Attributes?.ApproximateNumberOfMessages);
}

test('list describes each dead letter by event, never by secret id, and leaves them all visible', async () => {
  const sentAt = Date.now();
  await sendDeadLetters(job('evt_a', 'secret.created', Date.UTC(2030, 0, 2, 3, 4, 5)), 'not a job {');

  const { letters, notReleased } = await listDeadLetters(sqs, deadLettersUrl);
  expect(notReleased).toBe(0);
  const lines = letters.map(describeDeadLetter);
  expect(lines).toHaveLength(2);
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^\S+ {2}receives 1 {2}sent \S+Z {2}body: not a job \{$/),
      expect.stringMatching(/^\S+ {2}receives 1 {2}sent \S+Z {2}evt_a secret\.created at 2030-01-02T03:04:05\.000Z$/),
    ]),
  );
  expect(lines.join('\n')).not.toContain(SECRET_ID);
  expect(letters.every((letter) => letter.sentAt.getTime() >= sentAt - 1)).toBe(true);
  expect(await visibleCount(deadLettersUrl)).toBe(2);
});

test('list pages through more than one receive and lists each message once', async () => {
  const bodies = Array.from({ length: 23 }, (_, index) => job(`evt_${index}`, 'secret.viewed', 0));
  await sendDeadLetters(...bodies);

  const { letters, notReleased } = await listDeadLetters(sqs, deadLettersUrl);
  expect(notReleased).toBe(0);
  expect(letters).toHaveLength(23);
  expect(new Set(letters.map((letter) => letter.messageId)).size).toBe(23);
  expect(letters.map((letter) => letter.body).sort()).toEqual([...bodies].sort());
});

test('list of an empty queue is empty', async () => {
  expect(await listDeadLetters(sqs, deadLettersUrl)).toEqual({ letters: [], notReleased: 0, countsRaised: true });
});

test('list counts the dead letters it could not make visible again', async () => {
  const client = new SQSClient({});
  const mock = mockClient(client);
  const message = (id: string) => ({ MessageId: id, ReceiptHandle: `handle-${id}`, Body: 'not a job {' });
  mock
    .on(ReceiveMessageCommand)
    .resolvesOnce({ Messages: [message('a'), message('b')] })
    .resolves({});
  mock.on(ChangeMessageVisibilityBatchCommand).resolves({
    Successful: [{ Id: '0' }],
    Failed: [{ Id: '1', SenderFault: true, Code: 'ReceiptHandleIsInvalid' }],
  });

  const { letters, notReleased } = await listDeadLetters(client, deadLettersUrl);
  expect(letters.map((letter) => letter.messageId)).toEqual(['a', 'b']);
  expect(notReleased).toBe(1);
});

/** A job failed its 4 attempts on the jobs queue and moved to the dead letters on the next receive, as SQS moves it. */
async function deadLetterThroughRedrivePolicy(body: string): Promise<void> {
  await sqs.send(new SendMessageBatchCommand({ QueueUrl: jobsUrl, Entries: [{ Id: '0', MessageBody: body }] }));
  for (let attempt = 0; attempt <= 4; attempt++) {
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: jobsUrl, VisibilityTimeout: 0 }));
  }
}

const runDlq = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(TSX, ['--conditions=import', 'scripts/dlq.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, SQS_ENDPOINT: service.endpoint, WEBHOOK_DEAD_LETTER_QUEUE_URL: deadLettersUrl },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });

test('local mode: list peeks, so listing again and again leaves each receive count at the attempts made', async () => {
  await deadLetterThroughRedrivePolicy(job('evt_dead', 'secret.created', 0));

  for (let listing = 0; listing < 3; listing++) {
    const { letters, countsRaised } = await peekDeadLetters(service.endpoint, deadLettersUrl);
    expect(countsRaised).toBe(false);
    expect(letters.map((letter) => letter.receiveCount)).toEqual([4]);
  }
  const cli = await runDlq(['list']);
  expect(cli).toEqual({ code: 0, stdout: expect.stringMatching(/ {2}receives 4 {2}.*evt_dead secret\.created/), stderr: '' });
  expect(cli.stdout).toMatch(/^1 dead letter$/m);

  // Nothing was received: the letter is visible, and the next receive is its fifth.
  expect(await visibleCount(deadLettersUrl)).toBe(1);
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: deadLettersUrl, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }),
  );
  expect(Messages.map((message) => message.Attributes?.ApproximateReceiveCount)).toEqual(['5']);
});

test('on SQS list must receive: it says that its receive is in the counts', async () => {
  await deadLetterThroughRedrivePolicy(job('evt_dead', 'secret.created', 0));
  const { letters, countsRaised } = await listDeadLetters(sqs, deadLettersUrl);
  expect(countsRaised).toBe(true);
  expect(letters.map((letter) => letter.receiveCount)).toEqual([5]);
});

test('peeking at a queue that does not exist fails loudly', async () => {
  await expect(peekDeadLetters(service.endpoint, `${service.endpoint}/000000000000/missing`)).rejects.toThrow('does not exist');
});

test('redrive moves every dead letter back to the jobs queue with its body unchanged', async () => {
  const bodies = [job('evt_a', 'secret.created', 1), job('evt_b', 'secret.expired', 2), 'not a job {'];
  await sendDeadLetters(...bodies, ...Array.from({ length: 9 }, (_, index) => `filler ${index}`));

  const result = await redriveDeadLetters(sqs, { deadLetterQueueUrl: deadLettersUrl, queueUrl: jobsUrl });
  expect(result).toEqual({ moved: 12, notDeleted: 0 });
  expect(await visibleCount(deadLettersUrl)).toBe(0);

  const received: string[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: jobsUrl, MaxNumberOfMessages: 10 }));
    if (Messages.length === 0) break;
    received.push(...Messages.map((message) => message.Body ?? ''));
  }
  expect(received.sort()).toEqual([...bodies, ...Array.from({ length: 9 }, (_, index) => `filler ${index}`)].sort());
});

test('redrive of a queue that does not exist fails loudly', async () => {
  await expect(redriveDeadLetters(sqs, { deadLetterQueueUrl: `${service.endpoint}/000000000000/missing`, queueUrl: jobsUrl })).rejects.toThrow(
    'does not exist',
  );
});
