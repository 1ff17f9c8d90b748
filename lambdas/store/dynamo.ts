import { unmarshall } from '@aws-sdk/util-dynamodb';
import { AwsServiceError } from '../aws/aws-json-client';
import type { TableDefinition } from '../definitions/tables';
import { DocumentClient } from './document-client';

let documentClient: DocumentClient | undefined;

/**
 * One document client per process, created on first use so that local mode can point it at
 * DynamoDB Local (DYNAMODB_ENDPOINT) before any handler runs. On AWS the endpoint is unset.
 */
export function dynamo(): DocumentClient {
  documentClient ??= new DocumentClient();
  return documentClient;
}

export function tableName(table: TableDefinition): string {
  const name = process.env[table.envVar];
  if (!name) throw new Error(`${table.envVar} is not set`);
  return name;
}

export const isConditionFailure = (error: unknown): error is AwsServiceError =>
  error instanceof AwsServiceError && error.name === 'ConditionalCheckFailedException';

/**
 * The item returned by ReturnValuesOnConditionCheckFailure. It comes with the error, in DynamoDB's
 * wire format.
 */
export const itemOfConditionFailure = <TItem>(error: AwsServiceError): TItem | undefined => {
  const item = error.details.Item;
  return item ? (unmarshall(item as Parameters<typeof unmarshall>[0]) as TItem) : undefined;
};

export const epochSeconds = (ms: number): number => Math.ceil(ms / 1000);
