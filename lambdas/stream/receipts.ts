import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { SECRETS_TABLE, SECRET_ATTRIBUTES as A } from '../definitions/tables';
import { TTL_DELETION_PRINCIPAL } from '../definitions/webhooks';
import { OPEN_REQUEST, receiptOf, stateOfRemovedHead, type Receipt } from '../rules/receipt';
import { numberOf, passesStreamEventFilter, stringOf, type StreamUserIdentity } from './records';

/** The receipt to keep for a secret whose head was deleted. */
export interface RemovedSecretReceipt {
  id: string;
  owner: string;
  receipt: Receipt;
}

const numbersOf = (value: AttributeValue | undefined): number[] =>
  (value?.L ?? []).map(numberOf).filter((number): number is number => number !== undefined);

/**
 * The receipt of a head item's removal, whoever removed it: the stream consumer after the last
 * view or a burn, the owner's revocation, or DynamoDB TTL (the one deletion whose record names
 * TTL_DELETION_PRINCIPAL, which is how an expired secret is told from a revoked one). Receipt
 * items and chunks are not heads: their own changes and TTL deletions give nothing.
 */
export function receiptOfRemoval(record: DynamoDBRecord): RemovedSecretReceipt | undefined {
  if (record.eventName !== 'REMOVE' || !passesStreamEventFilter(record)) return undefined;
  const deletedByTtl = (record.userIdentity as StreamUserIdentity | undefined)?.principalId === TTL_DELETION_PRINCIPAL;
  return receiptOfHeadImage(record.dynamodb?.OldImage, deletedByTtl);
}

/**
 * The receipt of a head whose last view (or passphrase attempt) this update took, for the stream
 * consumer to write before it deletes the head: the receipt then answers from the moment the head
 * is gone, with no 404 in between. Its state (used or burned) is final; the removal writes it again.
 */
export const receiptOfConsumption = (record: DynamoDBRecord): RemovedSecretReceipt | undefined =>
  receiptOfHeadImage(record.dynamodb?.NewImage, false);

function receiptOfHeadImage(image: Record<string, AttributeValue> | undefined, deletedByTtl: boolean): RemovedSecretReceipt | undefined {
  // A secret request that was never answered held no secret: it leaves no receipt.
  if (stringOf(image?.[A.requestState]) === OPEN_REQUEST) return undefined;
  const id = stringOf(image?.[SECRETS_TABLE.partitionKey]);
  const owner = stringOf(image?.[A.owner]);
  const views = numberOf(image?.[A.views]);
  const remaining = numberOf(image?.[A.remaining]);
  const created = numberOf(image?.[A.created]);
  const expires = numberOf(image?.[A.expires]);
  if (id === undefined || owner === undefined || views === undefined || remaining === undefined || created === undefined || expires === undefined) {
    return undefined;
  }
  const burnedAt = numberOf(image?.[A.burnedAt]);
  const facts = { views, remaining, created, expires, viewed: numbersOf(image?.[A.viewed]), ...(burnedAt === undefined ? {} : { burnedAt }) };
  return { id, owner, receipt: receiptOf(facts, stateOfRemovedHead(facts, deletedByTtl)) };
}
