import { LOCAL_ACCOUNT_ID, localQueueArn } from '../aws-account';
import { QueueError } from './errors';
import type { LocalQueue, ReceivedMessage } from './queue';

/** The attributes SQS reports for queues and for received messages, as strings as on the wire. */

/** SQS's limit since August 2025; it applies to one message and to a whole batch. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

// SQS settings are whole seconds; local queues may use less, which is reported as a full second.
const seconds = (ms: number): string => String(Math.ceil(ms / 1000));

const QUEUE_ATTRIBUTES = new Map<string, (queue: LocalQueue) => string | undefined>([
  ['QueueArn', (queue) => localQueueArn(queue.name)],
  ['ApproximateNumberOfMessages', (queue) => String(queue.counts().visible)],
  ['ApproximateNumberOfMessagesNotVisible', (queue) => String(queue.counts().inFlight)],
  ['ApproximateNumberOfMessagesDelayed', (queue) => String(queue.counts().delayed)],
  ['VisibilityTimeout', (queue) => seconds(queue.settings.visibilityTimeoutMs)],
  ['MessageRetentionPeriod', (queue) => seconds(queue.settings.retentionMs)],
  [
    'RedrivePolicy',
    ({ deadLetter: to }) => to && JSON.stringify({ deadLetterTargetArn: localQueueArn(to.queue.name), maxReceiveCount: to.maxReceiveCount }),
  ],
]);

export function queueAttributes(queue: LocalQueue, names: readonly string[]): Record<string, string> {
  const unknown = names.find((name) => name !== 'All' && !QUEUE_ATTRIBUTES.has(name));
  if (unknown !== undefined) {
    throw new QueueError('InvalidAttributeName', `Unknown Attribute ${unknown} (or not supported by the local queue service).`);
  }
  return pick(QUEUE_ATTRIBUTES, names, queue);
}

const MESSAGE_ATTRIBUTES = new Map<string, (message: ReceivedMessage) => string | undefined>([
  ['ApproximateReceiveCount', (message) => String(message.receiveCount)],
  ['SentTimestamp', (message) => String(message.sentTimestamp)],
  ['SenderId', () => LOCAL_ACCOUNT_ID],
  ['ApproximateFirstReceiveTimestamp', (message) => String(message.firstReceiveTimestamp)],
  ['DeadLetterQueueSourceArn', ({ deadLetterSourceQueue: source }) => source && localQueueArn(source)],
]);

/** Names that apply only to FIFO queues or to features the local service lacks are left out, as SQS does. */
export function messageAttributes(message: ReceivedMessage, names: readonly string[]): Record<string, string> | undefined {
  const attributes = pick(MESSAGE_ATTRIBUTES, names, message);
  return Object.keys(attributes).length > 0 ? attributes : undefined;
}

function pick<T>(readers: ReadonlyMap<string, (subject: T) => string | undefined>, names: readonly string[], subject: T): Record<string, string> {
  const wanted = names.includes('All') ? [...readers.keys()] : names;
  const attributes: Record<string, string> = {};
  for (const name of wanted) {
    const value = readers.get(name)?.(subject);
    if (value !== undefined) attributes[name] = value;
  }
  return attributes;
}
