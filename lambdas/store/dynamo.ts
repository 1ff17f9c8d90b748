import { DynamoDBClient, type ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withoutSdkLogging } from '../aws/sdk-client';
import { ENV } from '../definitions/env';
import type { TableDefinition } from '../definitions/tables';

let documentClient: DynamoDBDocumentClient | undefined;

/**
 * One document client per process, created on first use so that local mode can point it at
 * DynamoDB Local (DYNAMODB_ENDPOINT) before any handler runs. On AWS the endpoint is unset.
 */
export function dynamo(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = process.env[ENV.dynamodbEndpoint];
    const client = withoutSdkLogging(new DynamoDBClient(endpoint ? { endpoint } : {}));
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return documentClient;
}

export function tableName(table: TableDefinition): string {
  const name = process.env[table.envVar];
  if (!name) throw new Error(`${table.envVar} is not set`);
  return name;
}

export const isConditionFailure = (error: unknown): error is ConditionalCheckFailedException =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * The item returned by ReturnValuesOnConditionCheckFailure. The document client unmarshalls
 * results but not exceptions, so the item arrives in DynamoDB's wire format.
 */
export const itemOfConditionFailure = <TItem>(error: ConditionalCheckFailedException): TItem | undefined =>
  error.Item ? (unmarshall(error.Item) as TItem) : undefined;

export const epochSeconds = (ms: number): number => Math.ceil(ms / 1000);
