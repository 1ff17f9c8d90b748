import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { describe, invokeWithTimeout, pollUntilAborted, type Invocation, type Poller } from './poller-support';
import { lambdaContext } from './lambda-context';

/**
 * Lambda's SQS event source mapping (ReportBatchItemFailures): each batch is an invocation of its own,
 * not waited for, as on Lambda. Only what succeeded is deleted: visibility and redrive do the retries.
 */

export interface QueuePollerOptions {
  client: SQSClient;
  queueUrl: string;
  queueArn: string;
  functionName: string;
  /** Messages per invocation, 1 to 10 (one ReceiveMessage). */
  batchSize: number;
  /** Invocations in flight at most (Lambda's maximum concurrency); side by side in one process (see invocation-scope.ts). */
  maxConcurrency: number;
  /** Receive loops: each long-polls, then starts an invocation for what it received. */
  pollers: number;
  timeoutMs: number;
  handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;
  log: (line: string) => void;
}

const LONG_POLL_SECONDS = 20;

/** Where the records come from, as each record of the event names it. */
type EventSource = Pick<SQSRecord, 'eventSourceARN' | 'awsRegion'>;

export function startQueuePoller(options: QueuePollerOptions): Poller {
  const source: EventSource = { eventSourceARN: options.queueArn, awsRegion: options.queueArn.split(':')[3] ?? '' };
  const stopping = new AbortController();
  const invocations = new Invocations(options.maxConcurrency);
  const loops = Array.from({ length: options.pollers }, () => receiveLoop(options, source, invocations, stopping.signal));
  return {
    stop: async () => {
      stopping.abort();
      await Promise.all(loops);
      // What was received is seen through: its successes deleted, so not delivered again.
      await invocations.settled();
    },
  };
}

/** Invocations in flight, counted from a poller's reservation before it receives, so pollers never overshoot `max` together. */
class Invocations {
  private taken = 0;
  private readonly running = new Set<Promise<void>>();
  /** Aborted, and replaced, whenever a place is given back. */
  private freed = new AbortController();

  constructor(private readonly max: number) {}

  /** Takes a place once fewer than `max` are taken; false if `signal` aborted first. */
  async reserve(signal: AbortSignal): Promise<boolean> {
    while (this.taken >= this.max && !signal.aborted) await once(AbortSignal.any([signal, this.freed.signal]), 'abort');
    if (signal.aborted) return false;
    this.taken += 1;
    return true;
  }

  /** Gives back a place that no invocation used (the receive found nothing, or failed). */
  release(): void {
    this.taken -= 1;
    this.freed.abort();
    this.freed = new AbortController();
  }

  /** Runs an invocation in a reserved place, which it gives back when it ends. */
  start(invocation: Promise<void>): void {
    const tracked = invocation.finally(() => {
      this.running.delete(tracked);
      this.release();
    });
    this.running.add(tracked);
  }

  settled(): Promise<unknown> {
    return Promise.allSettled([...this.running]);
  }
}

/** Each receive loop reserves a place before it receives, so that no message is hidden without being worked on. */
function receiveLoop(options: QueuePollerOptions, source: EventSource, invocations: Invocations, signal: AbortSignal): Promise<void> {
  return pollUntilAborted(
    signal,
    async () => {
      if (!(await invocations.reserve(signal))) return;
      let started = false;
      try {
        const { Messages = [] } = await options.client.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize,
            WaitTimeSeconds: LONG_POLL_SECONDS,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp', 'SenderId', 'ApproximateFirstReceiveTimestamp'],
          }),
          { abortSignal: signal },
        );
        if (Messages.length === 0) return;
        started = true;
        invocations.start(
          invokeAndDelete(options, source, Messages).catch((error: unknown) => {
            options.log(`${options.functionName}: a batch failed outside its handler: ${describe(error)}`);
          }),
        );
      } finally {
        if (!started) invocations.release();
      }
    },
    (error, waitMs) => options.log(`${options.functionName}: polling failed: ${describe(error)}; again in ${waitMs} ms`),
  );
}

async function invokeAndDelete(options: QueuePollerOptions, source: EventSource, messages: readonly Message[]): Promise<void> {
  const started = Date.now();
  const records = messages.map((message) => sqsRecord(message, source));
  const context = lambdaContext(options.functionName, randomUUID(), options.timeoutMs);
  const invocation = await invokeWithTimeout(() => options.handler({ Records: records }, context), options.timeoutMs);
  const { failed, why } = failedRecords(records, invocation);
  const count = `${records.length} message${records.length === 1 ? '' : 's'}`;
  options.log(
    `${options.functionName} ${count}${failed.size > 0 ? `, ${failed.size} failed` : ''}${why ? ` (${why})` : ''} ` + `${Date.now() - started}ms`,
  );

  const succeeded = records.filter((record) => !failed.has(record));
  if (succeeded.length === 0) return;
  // Not aborted by stop(): what succeeded must not be delivered again.
  const { Failed = [] } = await options.client.send(
    new DeleteMessageBatchCommand({
      QueueUrl: options.queueUrl,
      Entries: succeeded.map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })),
    }),
  );
  if (Failed.length > 0) {
    const codes = Failed.map((entry) => entry.Code).join(', ');
    options.log(`${options.functionName}: ${Failed.length} of ${succeeded.length} deletions failed: ${codes}`);
  }
}

/** As Lambda reads the response: a throw, a timeout or an identifier not in the batch fails the whole batch. */
function failedRecords(records: readonly SQSRecord[], invocation: Invocation<SQSBatchResponse | void>): { failed: Set<SQSRecord>; why?: string } {
  const all = new Set(records);
  if (invocation.outcome === 'threw') return { failed: all, why: `handler threw ${describe(invocation.error)}` };
  if (invocation.outcome === 'timed out') return { failed: all, why: 'timed out' };
  const identifiers = invocation.response?.batchItemFailures?.map((failure) => failure.itemIdentifier) ?? [];
  const byId = new Map(records.map((record) => [record.messageId, record]));
  const failed = new Set<SQSRecord>();
  for (const identifier of identifiers) {
    const record = byId.get(identifier);
    if (!record) return { failed: all, why: 'batchItemFailures names a message not in the batch' };
    failed.add(record);
  }
  return { failed };
}

/** The message as Lambda's event carries it; the local queue service always returns what the receive asked for. */
function sqsRecord(message: Message, source: EventSource): SQSRecord {
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: message.Attributes as SQSRecord['attributes'],
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    ...source,
  };
}
