import type { DynamoDBRecord } from 'aws-lambda';
import { SECRETS_TABLE } from '../definitions/tables';
import { isHeadChange, numberOf, stringOf } from './records';

/**
 * The id of a secret that this head update left with no views and no one still reading it, so
 * that it can be deleted: the claim that took an inline secret's last view, or the last reader of
 * a chunked one signing off. Claims do not delete what they consume; the stream consumer does,
 * off the request path (see deleteConsumedSecret).
 */
export function consumedSecretIdOf(record: DynamoDBRecord): string | undefined {
  if (record.eventName !== 'MODIFY' || !isHeadChange(record)) return undefined;
  const after = record.dynamodb?.NewImage;
  const id = stringOf(after?.[SECRETS_TABLE.partitionKey]);
  if (id === undefined || numberOf(after?.remaining) !== 0) return undefined;
  const chunked = after?.chunks !== undefined;
  return !chunked || numberOf(after?.readers) === 0 ? id : undefined;
}
