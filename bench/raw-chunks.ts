import { epochSeconds } from '../lambdas/store/dynamo';
import { deleteChunks, readChunks, splitIntoChunks, writeChunks } from '../lambdas/store/secret-store';

/**
 * The 5 MiB baselines' storage calls: the secret store's own chunk write (one BatchWriteItem of
 * DATA_CHUNK_BYTES items) and chunk read (one consistent BatchGetItem, assembled in order), with no
 * head, authentication or HTTP. The bench makes them from its own process (raw) and through the
 * reference server (the same calls behind a bare HTTP hop).
 */

/** Left behind by an interrupted run, raw chunks expire as a secret's would. */
const RAW_CHUNK_LIFETIME_MS = 60 * 60 * 1000;

/** Writes `data` under `pk`; the number of chunk items it took. */
export async function writeRawChunks(pk: string, data: string): Promise<number> {
  const chunks = splitIntoChunks(data);
  await writeChunks(pk, chunks, epochSeconds(Date.now() + RAW_CHUNK_LIFETIME_MS));
  return chunks.length;
}

/** The data written under `pk` in `count` chunk items, in order; throws if any is missing. */
export async function readRawChunks(pk: string, count: number): Promise<string> {
  const data = await readChunks(pk, count);
  if (data === undefined) throw new Error(`the raw read under ${pk} found fewer than ${count} chunks`);
  return data;
}

export const deleteRawChunks = deleteChunks;
