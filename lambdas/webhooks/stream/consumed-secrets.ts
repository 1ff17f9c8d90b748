import type { DynamoDBRecord } from 'aws-lambda';
import { CLAIMANTS_DONE_MS, CLAIM_RETRY_WINDOW_MS, REPLAY_RETENTION_MS } from '#contract/limits';
import { KEYED_CLAIM_ATTRIBUTE_PREFIX, SECRETS_TABLE } from '#lambdas/definitions/tables';
import type { ConsumedSecret } from '#lambdas/store/secret-store';
import { isHeadChange, numberOf, stringOf } from './records';

/**
 * Beyond a claim's retry window: an attempt sent just before it closes may still be on its way,
 * and the consumer's clock may differ a little from the claim's.
 */
const RETRY_WINDOW_MARGIN_MS = 1_000;

/** A secret to delete, and from when on deleting it cannot take data from a claim still retrying. */
export interface DeletableSecret extends ConsumedSecret {
  deletableAt: number;
}

/**
 * The secret that this head update left with no views and no one still reading it, so that it
 * can be deleted: the claim that took an inline secret's last view, or the last reader of a
 * chunked one signing off. Claims do not delete what they consume; the stream consumer does,
 * off the request path (see deleteConsumedSecret).
 *
 * An inline secret waits out the retry window of the claim that took its last view (see
 * CLAIM_RETRY_WINDOW_MS): that claim may still repeat its update, and the repeat needs the data.
 * A chunked one needs no wait: its last reader signs off only after its own claim has finished.
 * A sign-off the store never settles leaves `readers` above 0 for good, so the update that took
 * the last view also has the secret deleted once every claim of it has surely ended
 * (CLAIMANTS_DONE_MS); after a settled sign-off that deletion finds the secret gone.
 *
 * Unless the last view was taken by a request with an Idempotency-Key (its claim attribute, with
 * 0 views left, is a keyed one): the client's repeat of it must still find the data, inline or
 * chunked, for REPLAY_RETENTION_MS after the view. A chunked one is then deleted from the update
 * that took that view alone, readers or not: sign-offs come well within that time.
 */
export function consumedSecretOf(record: DynamoDBRecord): DeletableSecret | undefined {
  if (record.eventName !== 'MODIFY' || !isHeadChange(record)) return undefined;
  const after = record.dynamodb?.NewImage;
  const id = stringOf(after?.[SECRETS_TABLE.partitionKey]);
  if (id === undefined || numberOf(after?.remaining) !== 0) return undefined;
  // An open secret request has no view yet, and none consumed: rewritten by a keyed create's repeat, it stays.
  if (stringOf(after?.requestState) === 'open') return undefined;
  const viewedAt = numberOf(after?.viewedAt) ?? 0;
  const lastViewKeyed = Object.entries(after ?? {}).some(([name, value]) => name.startsWith(KEYED_CLAIM_ATTRIBUTE_PREFIX) && numberOf(value) === 0);
  const chunks = numberOf(after?.chunks);
  if (chunks !== undefined) {
    // An answer to a request keeps its chunks under an id of its own.
    const chunkId = stringOf(after?.chunkId);
    const secret = { id, chunks, ...(chunkId !== undefined ? { chunkId } : {}) };
    // A claim's or a burn's update; a sign-off leaves the views as they were.
    const tookLastView = (numberOf(record.dynamodb?.OldImage?.remaining) ?? 0) > 0;
    if (lastViewKeyed) return tookLastView ? { ...secret, deletableAt: viewedAt + Math.max(REPLAY_RETENTION_MS, CLAIMANTS_DONE_MS) } : undefined;
    if (numberOf(after?.readers) === 0) return { ...secret, deletableAt: 0 };
    return tookLastView ? { ...secret, deletableAt: viewedAt + CLAIMANTS_DONE_MS } : undefined;
  }
  return {
    id,
    chunks: 0,
    deletableAt: viewedAt + (lastViewKeyed ? REPLAY_RETENTION_MS : CLAIM_RETRY_WINDOW_MS + RETRY_WINDOW_MARGIN_MS),
  };
}

/**
 * The chunks of a chunked secret whose head was deleted with views left (a revocation, or a
 * failed create undoing its head; not DynamoDB TTL), with the id they are under when it is not
 * the secret's (a request's answer's). The revocation deletes them right after the head, but the
 * head is its commit point: it answers 200 even when the store does not answer for the chunks,
 * and a revocation whose answer was lost after its deletion applied finds no head to name an
 * answer's chunk id. So this record, which still holds the head's last image, is where they are
 * deleted once more; after a deletion that did delete them, deleting again changes nothing.
 */
export function revokedChunksOf(record: DynamoDBRecord): ConsumedSecret | undefined {
  if (record.eventName !== 'REMOVE' || !isHeadChange(record)) return undefined;
  const before = record.dynamodb?.OldImage;
  const id = stringOf(before?.[SECRETS_TABLE.partitionKey]);
  const chunks = numberOf(before?.chunks);
  if (id === undefined || chunks === undefined || (numberOf(before?.remaining) ?? 0) <= 0) return undefined;
  const chunkId = stringOf(before?.chunkId);
  return { id, chunks, ...(chunkId !== undefined ? { chunkId } : {}) };
}
