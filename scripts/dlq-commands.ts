import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { parseWebhookJob } from '#lambdas/webhooks/rules/webhook-job';
import { peekMessages } from '#local/queue/peek';

/** The webhook dead-letter queue for operators, on SQS and local mode's queue service alike. */

type DeadLetter = ReturnType<typeof deadLetter>;

/**
 * Every dead letter, and how many the listing still holds (hidden from a redrive until
 * HOLD_SECONDS after they were listed). `countsRaised`: SQS cannot read a message without
 * receiving it, and every receive counts (a VisibilityTimeout of 0 too), so there each listing
 * raises every receive count by one; local mode's queue service peeks, and there it does not.
 */
type DeadLetterListing = { letters: DeadLetter[]; notReleased: number; countsRaised: boolean };

const MAX_PER_RECEIVE = 10;
/** Long polling makes SQS look at all its servers, so an empty answer means an empty queue. */
const WAIT_SECONDS = 1;
/** Long enough to page through the queue without seeing a message twice; list releases them after. */
const HOLD_SECONDS = 30;

type IdentifiedMessage = Message & { MessageId: string };

/** `items` in runs of `size`: by default as many as one SQS batch call takes. */
export const chunks = <T>(items: readonly T[], size = MAX_PER_RECEIVE): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/**
 * Pages through the queue, each message once (held HOLD_SECONDS, so that paging sees it once),
 * handing each to `visit`, which answers whether it deleted it. Whatever is still held at the end
 * is released, visible again at once; answers how many could not be.
 */
export async function visitEach(
  client: SQSClient,
  queueUrl: string,
  visit: (message: IdentifiedMessage) => boolean | Promise<boolean>,
): Promise<number> {
  const seen = new Set<string>();
  const held = new Set<string>();
  let notReleased = 0;
  try {
    for (;;) {
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: MAX_PER_RECEIVE,
          WaitTimeSeconds: WAIT_SECONDS,
          VisibilityTimeout: HOLD_SECONDS,
          MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
          MessageAttributeNames: ['All'],
        }),
      );
      for (const { ReceiptHandle } of Messages) if (ReceiptHandle) held.add(ReceiptHandle);
      // Paging ends at an empty answer, or at one with only messages seen before (held too long).
      const fresh = Messages.filter((message): message is IdentifiedMessage => !!message.MessageId && !seen.has(message.MessageId));
      if (fresh.length === 0) break;
      for (const message of fresh) {
        seen.add(message.MessageId);
        if (await visit(message)) held.delete(message.ReceiptHandle ?? '');
      }
    }
  } finally {
    // Released whatever happened: a listing must not hold messages back from a redrive or a replay.
    for (const handles of chunks([...held])) {
      const { Failed = [] } = await client.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: queueUrl,
          Entries: handles.map((handle, index) => ({ Id: String(index), ReceiptHandle: handle, VisibilityTimeout: 0 })),
        }),
      );
      notReleased += Failed.length;
    }
  }
  return notReleased;
}

/** A dead letter as SQS receives it (its receive count includes that receive) or the local queue service peeks at it. */
const deadLetter = (message: Pick<Message, 'Attributes' | 'Body'> & { MessageId: string }) => ({
  messageId: message.MessageId,
  receiveCount: Number(message.Attributes?.ApproximateReceiveCount),
  sentAt: new Date(Number(message.Attributes?.SentTimestamp)),
  body: message.Body ?? '',
});

/** SQS: every dead letter, each once, by receiving them; a receive with VisibilityTimeout 0 would count as well, and could not page. */
export async function listDeadLetters(client: SQSClient, deadLetterQueueUrl: string): Promise<DeadLetterListing> {
  const letters: DeadLetter[] = [];
  const notReleased = await visitEach(client, deadLetterQueueUrl, (message) => {
    letters.push(deadLetter(message));
    return false;
  });
  return { letters, notReleased, countsRaised: true };
}

/** Local mode: every dead letter as the local queue service holds it, read without being received. */
export async function peekDeadLetters(endpoint: string, deadLetterQueueUrl: string): Promise<DeadLetterListing> {
  return { letters: (await peekMessages(endpoint, deadLetterQueueUrl)).map(deadLetter), notReleased: 0, countsRaised: false };
}

/** One line per dead letter: for a webhook job its event id, event and time, never the secret's id. */
export function describeDeadLetter(letter: DeadLetter): string {
  const job = parseWebhookJob(letter.body);
  const what = job ? `${job.eventId} ${job.event.event} at ${new Date(job.event.timestamp).toISOString()}` : `body: ${letter.body}`;
  return `${letter.messageId}  receives ${letter.receiveCount}  sent ${letter.sentAt.toISOString()}  ${what}`;
}

/**
 * Sends each dead letter's body to the jobs queue again, then deletes it from the dead-letter
 * queue. A send that fails stops the redrive (what is left stays a dead letter, visible at once).
 */
export async function redriveDeadLetters(client: SQSClient, queues: { deadLetterQueueUrl: string; queueUrl: string }) {
  // notDeleted: sent, but still in the dead-letter queue too; a later redrive would deliver them twice.
  const result = { moved: 0, notDeleted: 0 };
  await visitEach(client, queues.deadLetterQueueUrl, async (message) => {
    await client.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: message.Body, MessageAttributes: message.MessageAttributes }));
    const deleting = client.send(new DeleteMessageCommand({ QueueUrl: queues.deadLetterQueueUrl, ReceiptHandle: message.ReceiptHandle }));
    const deleted = await deleting.then(() => true).catch(() => false);
    result[deleted ? 'moved' : 'notDeleted'] += 1;
    return deleted;
  });
  return result;
}
