import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { SECRETS_TABLE, SECRET_ATTRIBUTES as A } from '#lambdas/definitions/tables';
import { TTL_DELETION_PRINCIPAL } from '#lambdas/definitions/webhooks';
import { OPEN_REQUEST, receiptOf, stateOfRemovedHead, type Receipt } from '#lambdas/rules/receipt';
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
 * TTL_DELETION_PRINCIPAL, which is how an expired secret is told from a revoked one); not a failed
 * create's undoing of its own head, which marks it `undoneAt` first. Receipt
 * items and chunks are not heads: their own changes and TTL deletions give nothing.
 */
export function receiptOfRemoval(record: DynamoDBRecord): RemovedSecretReceipt | undefined {
  if (record.eventName !== 'REMOVE' || !passesStreamEventFilter(record)) return undefined;
  const before = record.dynamodb?.OldImage;
  // A secret request that was never answered held no secret, nor did a create that answered an
  // error and undid its head: neither leaves a receipt.
  if (stringOf(before?.[A.requestState]) === OPEN_REQUEST || before?.[A.undoneAt] !== undefined) return undefined;
  const id = stringOf(before?.[SECRETS_TABLE.partitionKey]);
  const owner = stringOf(before?.[A.owner]);
  const views = numberOf(before?.[A.views]);
  const remaining = numberOf(before?.[A.remaining]);
  const created = numberOf(before?.[A.created]);
  const expires = numberOf(before?.[A.expires]);
  if (id === undefined || owner === undefined || views === undefined || remaining === undefined || created === undefined || expires === undefined) {
    return undefined;
  }
  const burnedAt = numberOf(before?.[A.burnedAt]);
  const facts = { views, remaining, created, expires, viewed: numbersOf(before?.[A.viewed]), ...(burnedAt === undefined ? {} : { burnedAt }) };
  const deletedByTtl = (record.userIdentity as StreamUserIdentity | undefined)?.principalId === TTL_DELETION_PRINCIPAL;
  return { id, owner, receipt: receiptOf(facts, stateOfRemovedHead(facts, deletedByTtl)) };
}
