import * as z from 'zod';
import { MAX_MESSAGE_BYTES, messageAttributes, queueAttributes } from './attributes';
import { QueueError } from './errors';
import { answerPeek, LOCAL_TARGET_PREFIX, PEEK_ACTION } from './peek';
import { MAX_VISIBILITY_TIMEOUT_S, type LocalQueue } from './queue';
import type { QueueRegistry } from '../queue-service';

/** The SQS actions the local queue service answers, with SQS's parameter names, limits and errors, as AWS JSON 1.0 bodies. */

export interface OperationContext {
  registry: QueueRegistry;
  /** Aborts when the service stops or the client hangs up, ending a long poll. */
  signal: AbortSignal;
}

export type Operation = (input: unknown, context: OperationContext) => Promise<object> | object;

const TARGET_PREFIX = 'AmazonSQS.';
const MAX_BATCH_ENTRIES = 10;
const BATCH_ENTRY_ID = /^[A-Za-z0-9_-]{1,80}$/;
// What SQS accepts in a message body (its documented character ranges); lone surrogates fail.
const ALLOWED_BODY = /^[\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const names = z.array(z.string()).optional();
const queueRequest = z.object({ QueueUrl: z.string() });
const visibilityTimeout = whole(0, MAX_VISIBILITY_TIMEOUT_S);
const attributeMap = z.record(z.string(), z.unknown()).optional();
const receiptHandle = z.string().min(1);

/** Every bad or missing parameter is InvalidParameterValue (SQS says MissingParameter for a missing one: no caller tells them apart). */
function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new QueueError(
    'InvalidParameterValue',
    `Value for parameter ${issue?.path.join('.') || 'request'} is invalid. Reason: ${issue?.message ?? 'unknown'}.`,
  );
}

const operation =
  <S extends z.ZodType>(schema: S, run: (input: z.output<S>, context: OperationContext) => Promise<object> | object): Operation =>
  (input, context) =>
    run(parseInput(schema, input), context);

const sendEntry = z.object({
  MessageBody: z.string().min(1),
  DelaySeconds: whole(0, 900).optional(),
  MessageAttributes: attributeMap,
  MessageSystemAttributes: attributeMap,
});

/** Sends one message, checked as SQS checks it. */
function sendOne(
  queue: LocalQueue,
  { MessageBody: body, DelaySeconds, MessageAttributes, MessageSystemAttributes }: z.output<typeof sendEntry>,
): object {
  if (!ALLOWED_BODY.test(body)) {
    throw new QueueError('InvalidMessageContents', 'Invalid binary character in the message body; see the SQS documentation for allowed characters.');
  }
  if (Buffer.byteLength(body, 'utf8') > MAX_MESSAGE_BYTES) {
    throw new QueueError(
      'InvalidParameterValue',
      `One or more parameters are invalid. Reason: Message must be shorter than ${MAX_MESSAGE_BYTES} bytes.`,
    );
  }
  // Their MD5 digests are not implemented; refusing them beats silently dropping them.
  if (Object.keys({ ...MessageAttributes, ...MessageSystemAttributes }).length > 0) {
    throw new QueueError('UnsupportedOperation', 'The local queue service does not support message attributes.');
  }
  const sent = queue.send(body, (DelaySeconds ?? 0) * 1000);
  return { MessageId: sent.messageId, MD5OfMessageBody: sent.md5OfBody };
}

interface BatchResult {
  Successful: object[];
  Failed: { Id: string; SenderFault: boolean; Code: string; Message: string }[];
}

/** Checks a batch as SQS does, then runs each entry: an entry's error fails that entry alone. */
function runBatch<E extends { Id: string }>(entries: readonly E[], run: (entry: E) => object): BatchResult {
  if (entries.length === 0) {
    throw new QueueError('EmptyBatchRequest', 'There should be at least one entry in the request.');
  }
  if (entries.length > MAX_BATCH_ENTRIES) {
    throw new QueueError(
      'TooManyEntriesInBatchRequest',
      `Maximum number of entries per request are ${MAX_BATCH_ENTRIES}. You have sent ${entries.length}.`,
    );
  }
  if (entries.some((entry) => !BATCH_ENTRY_ID.test(entry.Id))) {
    throw new QueueError(
      'InvalidBatchEntryId',
      'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.',
    );
  }
  if (new Set(entries.map((entry) => entry.Id)).size !== entries.length) {
    throw new QueueError('BatchEntryIdsNotDistinct', 'Two or more batch entries in the request have the same Id.');
  }
  const result: BatchResult = { Successful: [], Failed: [] };
  for (const entry of entries) {
    try {
      result.Successful.push({ Id: entry.Id, ...run(entry) });
    } catch (error) {
      if (!(error instanceof QueueError)) throw error;
      result.Failed.push({ Id: entry.Id, SenderFault: true, Code: error.queryCode, Message: error.message });
    }
  }
  return result;
}

/** An action and its Batch form, which runs each entry as the action would. */
function withBatch<Shape extends z.ZodRawShape>(
  action: string,
  entry: Shape,
  run: (queue: LocalQueue, entry: z.output<z.ZodObject<Shape>>) => object,
  checkBatch: (entries: z.output<z.ZodObject<Shape>>[]) => void = () => undefined,
): Record<string, Operation> {
  const single = z.object(entry);
  const batch = z.object({ Entries: z.array(z.object({ Id: z.string() }).and(single)) });
  return {
    [action]: (input, { registry }) => run(registry.byUrl(parseInput(queueRequest, input).QueueUrl), parseInput(single, input)),
    [`${action}Batch`]: (input, { registry }) => {
      const queue = registry.byUrl(parseInput(queueRequest, input).QueueUrl);
      const { Entries } = parseInput(batch, input);
      checkBatch(Entries);
      return runBatch(Entries, (batchEntry) => run(queue, batchEntry));
    },
  };
}

const OPERATIONS: Readonly<Record<string, Operation>> = {
  ...withBatch('SendMessage', sendEntry.shape, sendOne, (entries) => {
    const totalBytes = entries.reduce((sum, entry) => sum + Buffer.byteLength(entry.MessageBody, 'utf8'), 0);
    if (totalBytes > MAX_MESSAGE_BYTES) {
      throw new QueueError('BatchRequestTooLong', `Batch requests cannot be longer than ${MAX_MESSAGE_BYTES} bytes.`);
    }
  }),

  ReceiveMessage: operation(
    queueRequest.extend({
      MaxNumberOfMessages: whole(1, MAX_BATCH_ENTRIES).optional(),
      WaitTimeSeconds: whole(0, 20).optional(),
      VisibilityTimeout: visibilityTimeout.optional(),
      AttributeNames: names,
      MessageSystemAttributeNames: names,
    }),
    async (input, { registry, signal }) => {
      const queue = registry.byUrl(input.QueueUrl);
      const received = await queue.receiveWaiting(
        input.MaxNumberOfMessages ?? 1,
        input.VisibilityTimeout === undefined ? queue.settings.visibilityTimeoutMs : input.VisibilityTimeout * 1000,
        (input.WaitTimeSeconds ?? 0) * 1000,
        signal,
      );
      if (received.length === 0) return {};
      const requested = [...(input.AttributeNames ?? []), ...(input.MessageSystemAttributeNames ?? [])];
      return {
        Messages: received.map((message) => ({
          MessageId: message.messageId,
          ReceiptHandle: message.receiptHandle,
          MD5OfBody: message.md5OfBody,
          Body: message.body,
          Attributes: messageAttributes(message, requested),
        })),
      };
    },
  ),

  ...withBatch('DeleteMessage', { ReceiptHandle: receiptHandle }, (queue, { ReceiptHandle }) => {
    queue.delete(ReceiptHandle);
    return {};
  }),

  ...withBatch('ChangeMessageVisibility', { ReceiptHandle: receiptHandle, VisibilityTimeout: visibilityTimeout }, (queue, entry) => {
    queue.changeVisibility(entry.ReceiptHandle, entry.VisibilityTimeout * 1000);
    return {};
  }),

  GetQueueAttributes: operation(queueRequest.extend({ AttributeNames: names }), (input, { registry }) => {
    const attributes = queueAttributes(registry.byUrl(input.QueueUrl), input.AttributeNames ?? []);
    return Object.keys(attributes).length > 0 ? { Attributes: attributes } : {};
  }),
};

/** The operation an `x-amz-target` names: SQS's, or the local service's own peek. */
export function findOperation(target: string): Operation | undefined {
  if (target === `${LOCAL_TARGET_PREFIX}${PEEK_ACTION}`) return operation(queueRequest, answerPeek);
  const name = target.slice(TARGET_PREFIX.length);
  return target.startsWith(TARGET_PREFIX) && Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
}
