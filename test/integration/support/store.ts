import {
  DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
  paginateQuery,
  paginateScan,
} from '@aws-sdk/lib-dynamodb';
import { localDynamoDbClient } from '../../../local/dynamodb-local';
import { hashApiKey } from '../../../lambdas/core/api-keys';
import { SECRET_HEAD_SK, keyItemPk } from '../../../lambdas/definitions/tables';
import { testEnv } from './environment';

/**
 * Direct access to the DynamoDB Local behind the server: to look at what is stored, and to age
 * items (a key's or secret's expiry) without waiting 90 days or a day.
 */

let client: DynamoDBDocumentClient | undefined;
function store(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(localDynamoDbClient(testEnv('dynamodbEndpoint')));
  return client;
}

export function closeStore(): void {
  client?.destroy();
  client = undefined;
}

/** Every item under a secret's partition, over as many 1 MB query pages as it takes. */
export async function itemsOfSecret(id: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const pages = paginateQuery(
    { client: store() },
    {
      TableName: testEnv('secretsTable'),
      KeyConditionExpression: 'pk = :id',
      ExpressionAttributeValues: { ':id': id },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) items.push(...(page.Items ?? []));
  return items;
}

/** Secret items (heads and chunks) a key created; chunks are counted through their heads' ids. */
export async function countSecretItemsOwnedBy(key: string): Promise<number> {
  let count = 0;
  const pages = paginateScan(
    { client: store() },
    {
      TableName: testEnv('secretsTable'),
      FilterExpression: '#owner = :owner',
      ExpressionAttributeNames: { '#owner': 'owner' },
      ExpressionAttributeValues: { ':owner': hashApiKey(key) },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) {
    for (const head of page.Items ?? []) count += (await itemsOfSecret(head.pk as string)).length;
  }
  return count;
}

export async function expireKey(key: string): Promise<void> {
  await store().send(
    new UpdateCommand({
      TableName: testEnv('keysTable'),
      Key: { pk: keyItemPk(hashApiKey(key)) },
      UpdateExpression: 'SET expires = :past',
      ExpressionAttributeValues: { ':past': Date.now() - 1 },
    }),
  );
}

export async function expireSecret(id: string): Promise<void> {
  await store().send(
    new UpdateCommand({
      TableName: testEnv('secretsTable'),
      Key: { pk: id, sk: SECRET_HEAD_SK },
      UpdateExpression: 'SET expires = :past',
      ExpressionAttributeValues: { ':past': Date.now() - 1 },
    }),
  );
}

export async function storedKeyItem(key: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await store().send(
    new GetCommand({ TableName: testEnv('keysTable'), Key: { pk: keyItemPk(hashApiKey(key)) }, ConsistentRead: true }),
  );
  return Item;
}
