import * as z from 'zod';
import type { OperationContext } from './operations';

/**
 * The local queue's one action SQS lacks: reading a queue without receiving it, so `npm run dlq --
 * list` leaves receive counts as the delivery attempts. `x-amz-target: LocalQueue.PeekMessages`.
 */

export const LOCAL_TARGET_PREFIX = 'LocalQueue.';
export const PEEK_ACTION = 'PeekMessages';

const peekedMessage = z.object({
  MessageId: z.string(),
  Body: z.string(),
  Attributes: z.object({ ApproximateReceiveCount: z.string(), SentTimestamp: z.string() }),
});
const peekResponse = z.object({ Messages: z.array(peekedMessage) });
export type PeekedQueueMessage = z.infer<typeof peekedMessage>;

/** The service's side. */
export function answerPeek({ QueueUrl }: { QueueUrl: string }, { registry }: OperationContext): z.infer<typeof peekResponse> {
  const messages = registry.byUrl(QueueUrl).peek();
  return {
    Messages: messages.map((message) => ({
      MessageId: message.messageId,
      Body: message.body,
      Attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: String(message.sentTimestamp) },
    })),
  };
}

/** The client's side: every message of the queue at `queueUrl`, from the local queue service at `endpoint`. */
export async function peekMessages(endpoint: string, queueUrl: string): Promise<PeekedQueueMessage[]> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `${LOCAL_TARGET_PREFIX}${PEEK_ACTION}` },
    body: JSON.stringify({ QueueUrl: queueUrl }),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = z.object({ message: z.string() }).safeParse(body);
    throw new Error(`the local queue service refused to peek (${response.status}): ${message.success ? message.data.message : 'no reason given'}`);
  }
  return peekResponse.parse(body).Messages;
}
