import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
  paginateScan,
  type BatchGetCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { localDynamoDbClient } from '#local/dynamodb-local';
import { hashApiKey, sha256Hex } from '#lambdas/rules/api-keys';
import { MAX_CHUNKS_PER_SECRET } from '#contract/limits';
import {
  ADDRESS_BYTE_SLOT_PREFIX,
  SECRET_HEAD_SK,
  SECRET_RECEIPT_SK,
  addressBytesPk,
  idempotencyRecordPk,
  ipItemPk,
  keyItemPk,
  secretChunkKey,
} from '#lambdas/definitions/tables';
import { testEnv } from '#test/support/environment';
import { eventually } from '#test/support/eventually';

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

/**
 * A secret's head (first, if it is there) and every chunk item it may have, in order; chunks
 * without their data, so that tests polling for their deletion do not read megabytes each time.
 */
export async function itemsOfSecret(id: string, table = testEnv('secretsTable')): Promise<Record<string, unknown>[]> {
  const { Item: head } = await store().send(new GetCommand({ TableName: table, Key: { pk: id, sk: SECRET_HEAD_SK }, ConsistentRead: true }));
  const chunks: Record<string, unknown>[] = [];
  let keys: Record<string, unknown>[] | undefined = Array.from({ length: MAX_CHUNKS_PER_SECRET }, (_, index) => secretChunkKey(id, index));
  while (keys && keys.length > 0) {
    const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await store().send(
      new BatchGetCommand({
        RequestItems: {
          [table]: { Keys: keys, ConsistentRead: true, ProjectionExpression: 'pk, sk, #ttl', ExpressionAttributeNames: { '#ttl': 'ttl' } },
        },
      }),
    );
    chunks.push(...(Responses?.[table] ?? []));
    keys = UnprocessedKeys?.[table]?.Keys;
  }
  chunks.sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
  return head ? [head, ...chunks] : chunks;
}

/** An inline secret's head waits out its last claim's retry window (about 5 s) before the stream consumer deletes it. */
const RECEIPT_WAIT_MS = 20_000;

/**
 * Waits until a secret's head (and chunks) are gone and the stream consumer has written its
 * receipt item, and answers that item. Read from the table: polling GET /secrets/{id}/status
 * instead counts against the key's rate limit, and a slow stream once took a whole file's shared
 * key over it (docs/testing.md).
 */
export async function headGoneReceiptKept(id: string, table = testEnv('secretsTable')): Promise<Record<string, unknown>> {
  let receipt: Record<string, unknown> | undefined;
  await eventually(async () => {
    expect(await itemsOfSecret(id, table)).toEqual([]);
    ({ Item: receipt } = await store().send(new GetCommand({ TableName: table, Key: { pk: id, sk: SECRET_RECEIPT_SK }, ConsistentRead: true })));
    expect(receipt).toBeDefined();
  }, RECEIPT_WAIT_MS);
  return receipt as Record<string, unknown>;
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

/** Writes `item` into the secrets table as it is: a head written again under its id, as a keyed create's repeat may. */
export async function putSecretItem(item: Record<string, unknown>, table = testEnv('secretsTable')): Promise<void> {
  await store().send(new PutCommand({ TableName: table, Item: item }));
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

export const storedKeyItem = (key: string, table = testEnv('keysTable')): Promise<Record<string, unknown> | undefined> =>
  storedKeysTableItem(keyItemPk(hashApiKey(key)), table);

/** The log of POST /keys attempts from a client address. */
export const storedKeyCreationLog = (sourceIp: string, table = testEnv('keysTable')): Promise<Record<string, unknown> | undefined> =>
  storedKeysTableItem(ipItemPk(sha256Hex(sourceIp)), table);

/** The bytes a client address has sent to be stored, summed over its hour slots. */
export async function storedAddressBytes(sourceIp: string, table = testEnv('keysTable')): Promise<number> {
  const item = (await storedKeysTableItem(addressBytesPk(sha256Hex(sourceIp)), table)) ?? {};
  return Object.entries(item)
    .filter(([name]) => name.startsWith(ADDRESS_BYTE_SLOT_PREFIX))
    .reduce((sum, [, bytes]) => sum + Number(bytes), 0);
}

async function storedKeysTableItem(pk: string, table: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await store().send(new GetCommand({ TableName: table, Key: { pk }, ConsistentRead: true }));
  return Item;
}

/**
 * Puts a request's idempotency record on a key as another request would have left it, `ageMs`
 * old: to stand for a first request still at work (or long over) whose traces a test controls.
 */
export async function putIdempotencyRecord(key: string, scope: string, ageMs: number, body?: string): Promise<void> {
  await store().send(
    new UpdateCommand({
      TableName: testEnv('keysTable'),
      Key: { pk: idempotencyRecordPk(hashApiKey(key), scope) },
      UpdateExpression: 'SET idem = :record',
      ExpressionAttributeValues: { ':record': { at: Date.now() - ageMs, by: 'another-request', ...(body !== undefined ? { body } : {}) } },
    }),
  );
}
