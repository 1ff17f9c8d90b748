import { MAX_BODY_BYTES } from '../lambdas/definitions/limits';
import { SECRETS_TABLE } from '../lambdas/definitions/tables';
import { batchGetAll, batchWriteAll } from '../lambdas/store/batches';
import { tableName } from '../lambdas/store/dynamo';
import { splitIntoChunks } from '../lambdas/store/secret-store';
import { USAGE_HEADERS } from '../local/dynamodb-usage';
import { sleep } from '../local/poller-support';
import { api, dataFilling } from '../test/integration/support/api';
import { freshKey } from './fixtures';
import { elapsedMs, median, verdict, type Verdict } from './stats';

/**
 * 5 MiB secrets: creating one and claiming it through local mode, against writing and reading the
 * same bytes straight to DynamoDB Local (the same items of DATA_CHUNK_BYTES, each under the 400 KB
 * item limit, with the same batch calls) in the same run. The difference is the API's own cost:
 * 5 MiB over HTTP twice, JSON and base64 checks, authentication, the head item.
 */

export const LARGE_PAYLOAD_BUDGET = 1.5;
/**
 * Pause before each timed operation. Every write of 5 MiB puts ~5 MiB of item images on the
 * secrets table's stream, which local mode's poller reads on these same 2 cores (on AWS, Lambda
 * reads it elsewhere); without the pause, that work from one operation lands in the next one's time.
 */
export const SETTLE_MS = 1000;

export interface LargePayloadResult {
  bodyBytes: number;
  repetitions: number;
  createMs: number;
  rawWriteMs: number;
  claimMs: number;
  rawReadMs: number;
  /** Of createMs and claimMs, the handler's own time (local mode's x-local-handler-ms); the rest is HTTP and the client. */
  createHandlerMs: number;
  claimHandlerMs: number;
  create: Verdict;
  claim: Verdict;
}

async function timed(work: () => Promise<void>): Promise<number> {
  await sleep(SETTLE_MS);
  const started = performance.now();
  await work();
  return elapsedMs(started);
}

/** Raw writes and reads, API create and claim, interleaved so that noise falls on both sides alike. */
export async function measureLargePayloads(baseUrl: string, repetitions: number): Promise<LargePayloadResult> {
  const data = dataFilling(MAX_BODY_BYTES);
  const body = JSON.stringify({ data });
  const owner = await freshKey();
  const chunks = splitIntoChunks(data);
  const table = tableName(SECRETS_TABLE);
  const times = { create: [] as number[], rawWrite: [] as number[], claim: [] as number[], rawRead: [] as number[] };
  const handlerTimes = { create: [] as number[], claim: [] as number[] };
  const handlerMs = (headers: Record<string, string>): number => Number(headers[USAGE_HEADERS.handlerMs]);

  for (let repetition = 0; repetition < repetitions; repetition++) {
    const rawId = `bench-raw-${repetition}-${Date.now()}`;
    const keys = chunks.map((_, i) => ({ pk: rawId, sk: `raw#${i}` }));
    times.rawWrite.push(
      await timed(() => batchWriteAll(table, chunks.map((chunk, i) => ({ PutRequest: { Item: { ...keys[i], data: chunk } } })))),
    );

    let id = '';
    times.create.push(
      await timed(async () => {
        const created = await api<{ id: string }>('POST', '/secrets', {
          key: owner.key,
          rawBody: body,
          headers: { 'content-type': 'application/json' },
          baseUrl,
        });
        if (created.status !== 201) throw new Error(`5 MiB create answered ${created.status}`);
        id = created.body.id;
        handlerTimes.create.push(handlerMs(created.headers));
      }),
    );

    times.rawRead.push(
      await timed(async () => {
        const items = await batchGetAll<{ data: string }>(table, keys);
        if (items.reduce((length, item) => length + item.data.length, 0) !== data.length) throw new Error('raw read lost bytes');
      }),
    );

    times.claim.push(
      await timed(async () => {
        const claimed = await api<{ data: string }>('GET', `/secrets/${id}`, { key: owner.key, baseUrl });
        if (claimed.status !== 200 || claimed.body.data.length !== data.length) throw new Error(`5 MiB claim answered ${claimed.status}`);
        handlerTimes.claim.push(handlerMs(claimed.headers));
      }),
    );
    await batchWriteAll(table, keys.map((Key) => ({ DeleteRequest: { Key } })));
  }

  const result = {
    createMs: median(times.create),
    rawWriteMs: median(times.rawWrite),
    claimMs: median(times.claim),
    rawReadMs: median(times.rawRead),
    createHandlerMs: median(handlerTimes.create),
    claimHandlerMs: median(handlerTimes.claim),
  };
  return {
    bodyBytes: Buffer.byteLength(body),
    repetitions,
    ...result,
    create: verdict(result.createMs, result.rawWriteMs, LARGE_PAYLOAD_BUDGET),
    claim: verdict(result.claimMs, result.rawReadMs, LARGE_PAYLOAD_BUDGET),
  };
}
