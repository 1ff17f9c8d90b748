import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { WEBHOOK_TEST_EVENT, type WebhookEvent } from '#contract/limits';
import { SECRETS_TABLE } from '../definitions/tables';
import { sha256Hex } from '../rules/api-keys';
import { isHeadChange, numberOf, stringOf } from './stream/records';
import type { WebhookJob } from './rules/webhook-job';

type Image = Record<string, AttributeValue>;

/**
 * Turns one committed change of the secrets table into at most one webhook event:
 * - INSERT of a head item: `secret.created` (the head is the commit point of a create);
 * - MODIFY of a head item that took its last passphrase attempt: `secret.burned` (the wrong
 *   proof that burns a secret takes its views and its attempts to 0 in one update);
 * - MODIFY of a head item that took exactly one view: `secret.viewed` while views remain,
 *   `secret.expired` for the claim that took the last one;
 * - MODIFY of a request's head from `open` to `fulfilled`: `request.fulfilled`, the request's id
 *   in `data.id` (the answer is a secret under that same id; its claim is then `secret.expired`);
 * - anything else nothing: removals (a consumed secret's deletion, revocation, TTL), chunk items,
 *   the INSERT of a request (no secret exists yet), and head updates that leave `remaining` alone
 *   (a chunked claim signing off as reader).
 * The event source mapping's filter drops most of these before invocation; this is the check
 * in code that does not depend on it.
 */
export function webhookJobOf(record: DynamoDBRecord): WebhookJob | undefined {
  if (!isHeadChange(record)) return undefined;
  const change = record.dynamodb;
  if (!change) return undefined;

  const after = change.NewImage;
  const id = stringOf(after?.[SECRETS_TABLE.partitionKey]);
  const owner = stringOf(after?.owner);
  const remaining = numberOf(after?.remaining);
  if (id === undefined || owner === undefined || remaining === undefined) return undefined;

  const requestState = stringOf(after?.requestState);
  if (record.eventName === 'INSERT') {
    if (requestState !== undefined) return undefined;
    const created = numberOf(after?.created);
    return created === undefined ? undefined : job('secret.created', id, owner, created, remaining);
  }
  if (record.eventName === 'MODIFY') {
    if (requestState === 'fulfilled' && stringOf(change.OldImage?.requestState) === 'open') {
      const fulfilledAt = numberOf(after?.fulfilledAt);
      return fulfilledAt === undefined ? undefined : job('request.fulfilled', id, owner, fulfilledAt, remaining);
    }
    const burnedAt = numberOf(after?.burnedAt);
    if (isBurn(change.OldImage, after) && burnedAt !== undefined) return job('secret.burned', id, owner, burnedAt, remaining);
    const before = numberOf(change.OldImage?.remaining);
    const viewedAt = numberOf(after?.viewedAt);
    if (before === undefined || before - remaining !== 1 || viewedAt === undefined) return undefined;
    return job(remaining > 0 ? 'secret.viewed' : 'secret.expired', id, owner, viewedAt, remaining);
  }
  return undefined;
}

/** Attempts went from some to none: the update of the wrong proof that burned the secret. */
function isBurn(before: Image | undefined, after: Image | undefined): boolean {
  const attemptsBefore = numberOf(before?.attempts);
  return attemptsBefore !== undefined && attemptsBefore > 0 && numberOf(after?.attempts) === 0;
}

/**
 * The same change always yields the same id, so a retried stream batch re-sends an event under
 * the id it had. `remaining` tells the claims of one secret apart. The id is a digest: it must
 * not reveal the secret's id, which is a capability, in logs and dead letters.
 */
export const webhookEventId = (secretId: string, event: WebhookEvent, remaining: number): string =>
  `evt_${sha256Hex(`${secretId}\n${event}\n${remaining}`).slice(0, 32)}`;

function job(event: WebhookEvent, id: string, owner: string, timestamp: number, remaining: number): WebhookJob {
  return { eventId: webhookEventId(id, event, remaining), owner, event: { event, timestamp, data: { id } } };
}

/** A webhook.test event for `owner`'s webhook: an id of its own, since every test is a new event. */
export const testWebhookJob = (owner: string, now: number): WebhookJob => ({
  eventId: `evt_${randomBytes(16).toString('hex')}`,
  owner,
  event: { event: WEBHOOK_TEST_EVENT, timestamp: now, data: {} },
});
