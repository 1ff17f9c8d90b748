import type { DeleteCommandInput } from '@aws-sdk/lib-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isCanonicalBase64 } from '../core/base64';
import { DATA_CHUNK_BYTES, type SecretType } from '../definitions/limits';
import { SECRETS_TABLE, SECRET_HEAD_SK, secretChunkKey } from '../definitions/tables';
import { batchGetAll, batchWriteAll } from './batches';
import { dynamo, epochSeconds, isConditionFailure, tableName } from './dynamo';

/**
 * Storage of secrets within DynamoDB's 400 KB item limit:
 * - the head item (pk = id, sk "head") holds metadata, the view counter and, for data up to
 *   DATA_CHUNK_BYTES, the data itself, so small secrets cost one write and one read;
 * - larger data is split into chunk items, each under a partition key of its own
 *   (secretChunkKey), written BEFORE the head. The head is the commit point: a secret exists
 *   only once its head does, and every chunk carries the secret's TTL, so a failed create leaves
 *   nothing readable and nothing that outlives the ttl;
 * - data is stored as binary where its base64 allows (storedData): a quarter fewer bytes and
 *   capacity units than as text.
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
  /** Inline data (small secrets), as stored (see storedData) ... */
  data?: StoredData;
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
  data: StoredData;
  ttl: number;
}

/** Binary (the document client reads it back as a Uint8Array) or, where that would not round-trip, text. */
type StoredData = string | Uint8Array;

/**
 * Data (standard base64, as the API accepts it, or a DATA_CHUNK_BYTES slice of it) as it is
 * stored: as binary, which DynamoDB stores and bills at 3/4 of the base64's length, unless its
 * bytes would not give the same base64 back (see isCanonicalBase64).
 */
const storedData = (data: string): StoredData =>
  data.length % 4 === 0 && isCanonicalBase64(data) ? Buffer.from(data, 'base64') : data;

/** The base64 text that storedData stored. */
const base64Of = (data: StoredData): string =>
  typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');

const chunkKeys = (id: string, count: number) => Array.from({ length: count }, (_, index) => secretChunkKey(id, index));

/** The data of chunk items, DATA_CHUNK_BYTES characters each, in order. */
export function splitIntoChunks(data: string): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < data.length; i += DATA_CHUNK_BYTES) chunks.push(data.slice(i, i + DATA_CHUNK_BYTES));
  return chunks;
}

/** Chunk items of `chunks`, in order, under `id`, each expiring at `ttl` (epoch seconds). */
export const writeChunks = (id: string, chunks: readonly string[], ttl: number): Promise<void> =>
  batchWriteAll(
    tableName(SECRETS_TABLE),
    chunks.map((data, index) => ({ PutRequest: { Item: { ...secretChunkKey(id, index), data: storedData(data), ttl } satisfies ChunkItem } })),
  );

export async function putSecret(secret: NewSecret): Promise<void> {
  const table = tableName(SECRETS_TABLE);
  const ttl = epochSeconds(secret.expires);
  const inline = secret.data.length <= DATA_CHUNK_BYTES;
  const chunks = inline ? [] : splitIntoChunks(secret.data);
  if (!inline) await writeChunks(secret.id, chunks, ttl);
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
    ...(inline ? { data: storedData(secret.data) } : { chunks: chunks.length }),
  };
  try {
    await dynamo.send(new PutCommand({ TableName: table, Item: head, ConditionExpression: 'attribute_not_exists(pk)' }));
  } catch (error) {
    if (!inline) await deleteChunks(secret.id, chunks.length).catch(() => undefined);
    throw error;
  }
}

/**
 * Consumes one view with a single conditional update: of N concurrent claims on V views exactly
 * min(N, V) succeed, each seeing a distinct `remaining`. Expiry is checked here too: DynamoDB TTL
 * may lag by days. The claim that takes the last view does not delete the secret: from that update
 * on no request can read or revoke it, and the table's stream consumer deletes it (see
 * deleteConsumedSecret), so that the commonest claim of all, a secret's only view, costs one call.
 */
export async function claimSecret(id: string, now: number): Promise<ClaimedSecret | undefined> {
  let head: HeadItem;
  try {
    const { Attributes } = await dynamo.send(
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

  const data =
    head.chunks !== undefined ? await readChunksAsClaimant(id, head.chunks) : head.data !== undefined ? base64Of(head.data) : undefined;
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
 * Chunked data is read after the view is taken, so the chunks must outlive the last view until
 * every claimant has read them. Each claim counted itself into `readers` and takes itself out
 * here; the update that leaves no views and no readers is the one that lets the stream consumer
 * delete the secret.
 */
async function readChunksAsClaimant(id: string, chunks: number): Promise<string | undefined> {
  try {
    return await readChunks(id, chunks);
  } finally {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName(SECRETS_TABLE),
          Key: { pk: id, sk: SECRET_HEAD_SK },
          UpdateExpression: 'ADD readers :minusOne',
          // Without it, ADD would recreate a head that a revocation has just deleted.
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minusOne': -1 },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

/** Deletes a live secret if `owner` created it; false for any other (unknown, expired, foreign). */
export const revokeSecret = (id: string, owner: string, now: number): Promise<boolean> =>
  deleteSecretIf(id, {
    ConditionExpression: '#owner = :owner AND remaining > :zero AND expires > :now',
    ExpressionAttributeNames: { '#owner': 'owner' },
    ExpressionAttributeValues: { ':owner': owner, ':zero': 0, ':now': now },
  });

/** The data of `count` chunk items under `id`, in order; undefined if any is missing. */
export async function readChunks(id: string, count: number): Promise<string | undefined> {
  const items = await batchGetAll<ChunkItem>(tableName(SECRETS_TABLE), chunkKeys(id, count));
  if (items.length !== count) return undefined;
  // Appending builds the data without copying it (join would copy up to 5 MiB); it is copied
  // once, when the response is encoded.
  let data = '';
  for (const item of items.sort((a, b) => a.sk.localeCompare(b.sk))) data += base64Of(item.data);
  return data;
}

/**
 * Deletes a secret whose views are all taken and whose chunks (if any) nobody still reads. Called
 * by the stream consumer for each head update that may have left it so; true when this call
 * deleted it. Safe to repeat: a secret already deleted, or still in use, is left alone.
 */
export const deleteConsumedSecret = (id: string): Promise<boolean> =>
  deleteSecretIf(id, {
    // Inline data has no readers to wait for: every claim counts `readers` up, only chunked ones count down.
    ConditionExpression: 'remaining = :zero AND (attribute_not_exists(chunks) OR readers = :zero)',
    ExpressionAttributeValues: { ':zero': 0 },
  });

type DeleteCondition = Pick<DeleteCommandInput, 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>;

/** The head with one conditional DeleteItem (the commit point), then its chunks; false if the condition failed. */
async function deleteSecretIf(id: string, condition: DeleteCondition): Promise<boolean> {
  try {
    const { Attributes } = await dynamo.send(
      new DeleteCommand({
        TableName: tableName(SECRETS_TABLE),
        Key: { pk: id, sk: SECRET_HEAD_SK },
        ...condition,
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

export const deleteChunks = (id: string, count: number): Promise<void> =>
  batchWriteAll(tableName(SECRETS_TABLE), chunkKeys(id, count).map((Key) => ({ DeleteRequest: { Key } })));
