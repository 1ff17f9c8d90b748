import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { SECRETS_TABLE, SECRET_ATTRIBUTES as A } from '#lambdas/definitions/tables';
import { TTL_DELETION_PRINCIPAL } from '#lambdas/definitions/webhooks';
import { OPEN_REQUEST, receiptOf, stateOfRemovedHead, type Receipt } from '#lambdas/rules/receipt';
import { numberOf, passesStreamEventFilter, stringOf, type StreamUserIdentity } from './records';

/** A receipt to keep, under its secret's id and owner. */
export interface KeptReceipt {
  id: string;
  owner: string;
  receipt: Receipt;
}

const numbersOf = (value: AttributeValue | undefined): number[] =>
  (value?.L ?? []).map(numberOf).filter((number): number is number => number !== undefined);

/**
 * The receipt to keep for a head: when its last view or its burn is taken (the update that leaves
 * no view), so that it exists before the stream consumer deletes the head and a status read after
 * the claim's answer never finds neither; when it is removed with views left (the owner's
 * revocation, which wrote it already, or DynamoDB TTL, the one deletion whose record names
 * TTL_DELETION_PRINCIPAL); and when TTL removes a used head the consumer failed to delete. Not a
 * failed create's undoing of its own head, which marks it `undoneAt` first, nor an open request's.
 * Receipt items and chunks are not heads: their own changes and TTL deletions give nothing.
 */
export function receiptToKeep(record: DynamoDBRecord): KeptReceipt | undefined {
  if (!passesStreamEventFilter(record)) return undefined;
  const deletedByTtl = (record.userIdentity as StreamUserIdentity | undefined)?.principalId === TTL_DELETION_PRINCIPAL;
  const after = record.dynamodb?.NewImage;
  const tookLastView = record.eventName === 'MODIFY' && (numberOf(record.dynamodb?.OldImage?.[A.remaining]) ?? 0) > 0;
  // A chunked secret's last reader signing off lets the consumer delete it at once, maybe before
  // the last view's record (in the same batch, side by side) has kept the receipt: keep it again.
  const lastReaderDone = record.eventName === 'MODIFY' && numberOf(after?.[A.chunks]) !== undefined && numberOf(after?.[A.readers]) === 0;
  const image = record.eventName === 'REMOVE' ? record.dynamodb?.OldImage : tookLastView || lastReaderDone ? after : undefined;
  // A secret request that was never answered held no secret, nor did a create that answered an
  // error and undid its head: neither leaves a receipt.
  if (image === undefined || stringOf(image[A.requestState]) === OPEN_REQUEST || image[A.undoneAt] !== undefined) return undefined;
  const id = stringOf(image[SECRETS_TABLE.partitionKey]);
  const owner = stringOf(image[A.owner]);
  const views = numberOf(image[A.views]);
  const remaining = numberOf(image[A.remaining]);
  const created = numberOf(image[A.created]);
  const expires = numberOf(image[A.expires]);
  if (id === undefined || owner === undefined || views === undefined || remaining === undefined || created === undefined || expires === undefined) {
    return undefined;
  }
  // Its last view's update kept it already.
  if (record.eventName === 'REMOVE' && remaining <= 0 && !deletedByTtl) return undefined;
  if (record.eventName === 'MODIFY' && remaining > 0) return undefined;
  const burnedAt = numberOf(image[A.burnedAt]);
  const facts = { views, remaining, created, expires, viewed: numbersOf(image[A.viewed]), ...(burnedAt === undefined ? {} : { burnedAt }) };
  return { id, owner, receipt: receiptOf(facts, stateOfRemovedHead(facts, deletedByTtl)) };
}
