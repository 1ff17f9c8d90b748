import { SECRETS_TABLE } from '../lambdas/definitions/tables';
import { batchGetAll, batchWriteAll } from '../lambdas/store/batches';
import { tableName } from '../lambdas/store/dynamo';
import { splitIntoChunks } from '../lambdas/store/secret-store';

/**
 * The 5 MiB baselines' storage calls: data written as the secret store writes a large secret's
 * chunks (items of DATA_CHUNK_BYTES characters, one BatchWriteItem) and read back as a claim reads
 * them (one consistent BatchGetItem), with nothing else. The bench makes them from its own process
 * (raw) and through the reference server (the same calls behind a bare HTTP hop).
 */

const chunkKeys = (pk: string, count: number) => Array.from({ length: count }, (_, index) => ({ pk, sk: `raw#${index}` }));

/** Writes `data` under `pk`; the number of chunk items it took. */
export async function writeRawChunks(pk: string, data: string): Promise<number> {
  const chunks = splitIntoChunks(data);
  const keys = chunkKeys(pk, chunks.length);
  await batchWriteAll(tableName(SECRETS_TABLE), chunks.map((chunk, index) => ({ PutRequest: { Item: { ...keys[index], data: chunk } } })));
  return chunks.length;
}

/** The data written under `pk` in `count` chunk items, in order; throws if any is missing. */
export async function readRawChunks(pk: string, count: number): Promise<string> {
  const items = await batchGetAll<{ sk: string; data: string }>(tableName(SECRETS_TABLE), chunkKeys(pk, count));
  if (items.length !== count) throw new Error(`raw read found ${items.length} of ${count} chunks`);
  // BatchGetItem returns items in no particular order.
  const order = (sk: string): number => Number(sk.slice('raw#'.length));
  return items.sort((a, b) => order(a.sk) - order(b.sk)).reduce((data, item) => data + item.data, '');
}

export const deleteRawChunks = (pk: string, count: number): Promise<void> =>
  batchWriteAll(tableName(SECRETS_TABLE), chunkKeys(pk, count).map((Key) => ({ DeleteRequest: { Key } })));
