import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { SECRETS_TABLE } from '#lambdas/definitions/tables';
import { STREAM_EVENT_FILTER, TTL_DELETION_PRINCIPAL } from '#lambdas/definitions/webhooks';

/** Reading the secrets table's stream records, as Lambda delivers them (JSON attribute values). */

/**
 * STREAM_EVENT_FILTER as a predicate: the event source mapping's filter criteria, which local
 * mode's stream poller applies before invoking, and the stream consumer applies again in code.
 */
export function passesStreamEventFilter(record: DynamoDBRecord): boolean {
  const sortKey = record.dynamodb?.Keys?.[SECRETS_TABLE.sortKey]?.S;
  return (
    includes(STREAM_EVENT_FILTER.eventNames, record.eventName ?? '') && sortKey !== undefined && includes(STREAM_EVENT_FILTER.sortKeyValues, sortKey)
  );
}

/** Who made a change, as DynamoDB Streams records it (@types/aws-lambda leaves it untyped). */
export interface StreamUserIdentity {
  readonly type: string;
  readonly principalId: string;
}

/** A change the consumer acts on: it passes the filter and is not DynamoDB TTL's own deletion. */
export const isHeadChange = (record: DynamoDBRecord): boolean =>
  (record.userIdentity as StreamUserIdentity | undefined)?.principalId !== TTL_DELETION_PRINCIPAL && passesStreamEventFilter(record);

const includes = (values: readonly string[], value: string): boolean => values.includes(value);

export const stringOf = (value: AttributeValue | undefined): string | undefined => value?.S;

export function numberOf(value: AttributeValue | undefined): number | undefined {
  if (value?.N === undefined) return undefined;
  const number = Number(value.N);
  return Number.isFinite(number) ? number : undefined;
}
