import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DATA_CHUNK_BYTES, type SecretType } from '../definitions/limits';
import { SECRETS_TABLE, SECRET_HEAD_SK, secretChunkSk } from '../definitions/tables';
import { batchGetAll, batchWriteAll } from './batches';
import { dynamo, epochSeconds, isConditionFailure, tableName } from './dynamo';

/**
 * Storage of secrets within DynamoDB's 400 KB item limit. Each secret is a partition:
 * - the head item (sk "head") holds metadata, the view counter and, for data up to
 *   DATA_CHUNK_BYTES, the data itself, so small secrets cost one write and one read;
 * - larger data is split into chunk items (sk "chunk#0000"...) written BEFORE the head. The head
 *   is the commit point: a secret exists only once its head does, and every chunk carries the
 *   secret's TTL, so a failed create leaves nothing readable and nothing that outlives the ttl.
 */

export interface NewSecret {
  id: string;
  owner: string;
  data: string;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  views: number;
  created: number;
  expires: number;
}

export interface ClaimedSecret {
  data: string;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  remaining: number;
}

export interface HeadItem {
  pk: string;
  sk: string;
  owner: string;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  views: number;
  remaining: number;
  created: number;
  expires: number;
  ttl: number;
  /** Inline data (small secrets) ... */
  data?: string;
  /** ... or the number of chunk items holding it (large secrets). */
  chunks?: number;
  /** Claims that have taken a view and may still be reading chunks. */
  readers?: number;
  /** When the latest view was taken (ms). */
  viewedAt?: number;
}

interface ChunkItem {
  pk: string;
  sk: string;
  data: string;
  ttl: number;
}

const chunkKeys = (id: string, count: number) =>
  Array.from({ length: count }, (_, index) => ({ pk: id, sk: secretChunkSk(index) }));

function splitIntoChunks(data: string): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < data.length; i += DATA_CHUNK_BYTES) chunks.push(data.slice(i, i + DATA_CHUNK_BYTES));
  return chunks;
}

export async function putSecret(secret: NewSecret): Promise<void> {
  const table = tableName(SECRETS_TABLE);
  const ttl = epochSeconds(secret.expires);
  const inline = secret.data.length <= DATA_CHUNK_BYTES;
  const chunks = inline ? [] : splitIntoChunks(secret.data);
  if (!inline) {
    await batchWriteAll(
      table,
      chunks.map((data, index) => ({
        PutRequest: { Item: { pk: secret.id, sk: secretChunkSk(index), data, ttl } satisfies ChunkItem },
      })),
    );
  }
  const head: HeadItem = {
    pk: secret.id,
    sk: SECRET_HEAD_SK,
    owner: secret.owner,
    type: secret.type,
    ...(secret.filename !== undefined ? { filename: secret.filename } : {}),
    ...(secret.mimetype !== undefined ? { mimetype: secret.mimetype } : {}),
    views: secret.views,
    remaining: secret.views,
    created: secret.created,
    expires: secret.expires,
    ttl,
    ...(inline ? { data: secret.data } : { chunks: chunks.length }),
  };
  try {
    await dynamo().send(new PutCommand({ TableName: table, Item: head, ConditionExpression: 'attribute_not_exists(pk)' }));
  } catch (error) {
    if (!inline) await deleteChunks(secret.id, chunks.length).catch(() => undefined);
    throw error;
  }
}

/**
 * Consumes one view with a single conditional update: of N concurrent claims on V views exactly
 * min(N, V) succeed, each seeing a distinct `remaining`. The claim that takes the last view
 * deletes the secret. Expiry is checked here too: DynamoDB TTL may lag by days.
 */
export async function claimSecret(id: string, now: number): Promise<ClaimedSecret | undefined> {
  let head: HeadItem;
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(SECRETS_TABLE),
        Key: { pk: id, sk: SECRET_HEAD_SK },
        // `readers` matters only for chunked data (see readChunksAsClaimant); adding it is free.
        // viewedAt gives the stream record of this claim the time its webhook event reports.
        UpdateExpression: 'SET remaining = remaining - :one, viewedAt = :now ADD readers :one',
        ConditionExpression: 'remaining > :zero AND expires > :now',
        ExpressionAttributeValues: { ':one': 1, ':zero': 0, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    head = Attributes as HeadItem;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }

  let data = head.data;
  if (head.chunks === undefined) {
    if (head.remaining === 0) await deleteSecret(id, 0);
  } else {
    data = await readChunksAsClaimant(id, head.chunks);
  }
  // Chunks can be missing only if the owner revoked the secret while this claim read them.
  if (data === undefined) return undefined;
  return {
    data,
    type: head.type,
    ...(head.filename !== undefined ? { filename: head.filename } : {}),
    ...(head.mimetype !== undefined ? { mimetype: head.mimetype } : {}),
    remaining: head.remaining,
  };
}

/**
 * Chunked data is read after the view is taken, so the claim that takes the last view must not
 * delete the chunks while earlier claimants are still reading them. Each claim counted itself
 * into `readers`; whoever brings `readers` back to 0 once no views remain deletes the secret.
 */
async function readChunksAsClaimant(id: string, chunks: number): Promise<string | undefined> {
  try {
    return await readChunks(id, chunks);
  } finally {
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          TableName: tableName(SECRETS_TABLE),
          Key: { pk: id, sk: SECRET_HEAD_SK },
          UpdateExpression: 'ADD readers :minusOne',
          // Without it, ADD would recreate a head that a revocation has just deleted.
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minusOne': -1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const after = Attributes as HeadItem & { readers: number };
      if (after.remaining === 0 && after.readers === 0) await deleteSecret(id, chunks);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

/** Deletes a live secret if `owner` created it; false for any other (unknown, expired, foreign). */
export async function revokeSecret(id: string, owner: string, now: number): Promise<boolean> {
  try {
    const { Attributes } = await dynamo().send(
      new DeleteCommand({
        TableName: tableName(SECRETS_TABLE),
        Key: { pk: id, sk: SECRET_HEAD_SK },
        ConditionExpression: '#owner = :owner AND remaining > :zero AND expires > :now',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': owner, ':zero': 0, ':now': now },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const chunks = (Attributes as HeadItem | undefined)?.chunks ?? 0;
    if (chunks > 0) await deleteChunks(id, chunks);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

async function readChunks(id: string, count: number): Promise<string | undefined> {
  const items = await batchGetAll<ChunkItem>(tableName(SECRETS_TABLE), chunkKeys(id, count));
  if (items.length !== count) return undefined;
  return items
    .sort((a, b) => a.sk.localeCompare(b.sk))
    .map((item) => item.data)
    .join('');
}

/** Head and chunks; a small secret's head alone is one DeleteItem, not a batch. */
async function deleteSecret(id: string, chunks: number): Promise<void> {
  const head = { pk: id, sk: SECRET_HEAD_SK };
  if (chunks === 0) {
    await dynamo().send(new DeleteCommand({ TableName: tableName(SECRETS_TABLE), Key: head }));
    return;
  }
  await deleteItems([head, ...chunkKeys(id, chunks)]);
}

const deleteChunks = (id: string, count: number): Promise<void> => deleteItems(chunkKeys(id, count));

function deleteItems(keys: readonly { pk: string; sk: string }[]): Promise<void> {
  return batchWriteAll(tableName(SECRETS_TABLE), keys.map((Key) => ({ DeleteRequest: { Key } })));
}
