import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DELIVERY_CLAIM_LIFETIME_MS } from '#lambdas/definitions/webhooks';
import { KEY_ATTRIBUTES as KEY, KEYS_TABLE, deliveryClaimPk } from '#lambdas/definitions/tables';
import { holds, renderCondition, writtenBy } from './condition';
import { dynamo, isConditionFailure, tableName } from './dynamo';
import { NOT_APPLIED, readForSettling, settledWrite } from './settled-write';

/**
 * One delivery per event, however many queue messages carry it. A SendMessage whose answer is lost
 * (or late past the SDK's request timeout) is sent again by the SDK, and SQS, which has no
 * idempotent send on a standard queue, then holds two messages of one job; a retried stream batch
 * re-sends a job too. The first message to attempt an event claims it, and only that message
 * delivers and retries it; any other copy is dropped. The claim is let go when its message is
 * dead-lettered, so that a redriven job is delivered again.
 */

/**
 * True if `messageId` holds the event's delivery (it does after its first claim, on every retry).
 * A claim whose answer was lost is settled by reading the claim back, as every write of ours is
 * (settled-write.ts): a lost answer must not drop the event as another message's.
 */
export async function claimDelivery(eventId: string, messageId: string, now: number): Promise<boolean> {
  const key = { [KEY.pk]: deliveryClaimPk(eventId) };
  const ownClaim = writtenBy(KEY.claimedBy, messageId);
  return settledWrite({
    write: async (signal) => {
      try {
        await dynamo.send(
          new PutCommand({
            TableName: tableName(KEYS_TABLE),
            Item: { ...key, [KEY.claimedBy]: messageId, [KEY.ttl]: Math.ceil((now + DELIVERY_CLAIM_LIFETIME_MS) / 1000) },
            // A repeat of this put by the same message finds its own claim: repeating is safe.
            ...renderCondition({ any: [{ path: KEY.pk, op: 'absent' }, ownClaim] }),
          }),
          signal ? { abortSignal: signal } : {},
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    settle: async (signal) => {
      const claim = await readForSettling<{ [KEY.claimedBy]?: string }>(tableName(KEYS_TABLE), key, [KEY.claimedBy], signal);
      return claim === undefined ? NOT_APPLIED : holds(ownClaim, claim);
    },
  });
}

/** Lets the event go, if `messageId` holds it. */
export async function releaseDelivery(eventId: string, messageId: string): Promise<void> {
  try {
    await dynamo.send(
      new DeleteCommand({
        TableName: tableName(KEYS_TABLE),
        Key: { [KEY.pk]: deliveryClaimPk(eventId) },
        ...renderCondition(writtenBy(KEY.claimedBy, messageId)),
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
