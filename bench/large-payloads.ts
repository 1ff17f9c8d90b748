import { MAX_BODY_BYTES } from '../lambdas/definitions/limits';
import { USAGE_HEADERS } from '../local/dynamodb-usage';
import { sleep } from '../local/poller-support';
import { api, dataFilling } from '../test/support/api';
import type { DirectOperation } from './direct-operations';
import { freshKey } from './fixtures';
import { deleteRawChunks, readRawChunks, writeRawChunks } from './raw-chunks';
import { elapsedMs, median, verdict, type Verdict } from './stats';

/**
 * 5 MiB secrets: creating one and claiming it through local mode, against writing and reading the
 * same bytes straight to DynamoDB Local (the same items of DATA_CHUNK_BYTES, each under the 400 KB
 * item limit, with the same batch calls) in the same run. The difference is the API's own cost:
 * 5 MiB over HTTP twice, JSON and base64 checks, authentication, the head item. The reference
 * server makes the same raw calls behind a bare HTTP hop, with the 5 MiB as JSON in its request or
 * response: the least any JSON API over these calls costs here.
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
  /** The raw write and read through the reference server. */
  referenceWriteMs: number;
  referenceReadMs: number;
  create: Verdict;
  claim: Verdict;
}

async function timed(work: () => Promise<void>): Promise<number> {
  await sleep(SETTLE_MS);
  const started = performance.now();
  await work();
  return elapsedMs(started);
}

/** Runs the three sides of one measurement in an order that turns around each repetition. */
async function inTurn(repetition: number, sides: readonly (() => Promise<void>)[]): Promise<void> {
  for (const side of repetition % 2 === 0 ? sides : [...sides].reverse()) await side();
}

export interface LargePayloadTargets {
  localMode: string;
  reference: string;
}

/** Raw, reference and API sides, interleaved so that noise falls on all of them alike. */
export async function measureLargePayloads(targets: LargePayloadTargets, repetitions: number): Promise<LargePayloadResult> {
  const data = dataFilling(MAX_BODY_BYTES);
  const body = JSON.stringify({ data });
  const owner = await freshKey();
  const times = {
    create: [] as number[],
    rawWrite: [] as number[],
    referenceWrite: [] as number[],
    claim: [] as number[],
    rawRead: [] as number[],
    referenceRead: [] as number[],
  };
  const handlerTimes = { create: [] as number[], claim: [] as number[] };
  const handlerMs = (headers: Record<string, string>): number => Number(headers[USAGE_HEADERS.handlerMs]);
  /** The operation is JSON text already, as the create's body is: serializing it is the client's work, not timed. */
  const askReference = async (operation: string): Promise<{ data?: string }> => {
    const answered = await api<{ data?: string }>('POST', '/', {
      rawBody: operation,
      headers: { 'content-type': 'application/json' },
      baseUrl: targets.reference,
    });
    if (answered.status !== 200) throw new Error(`the reference server answered ${answered.status}: ${answered.raw.slice(0, 200)}`);
    return answered.body;
  };
  // Checked after the timing: comparing 5 MiB is the bench's work, not the side's.
  const expectData = (read: string | undefined, side: string): void => {
    if (read !== data) throw new Error(`the ${side} read did not return the data written`);
  };
  const operationText = (operation: DirectOperation): string => JSON.stringify(operation);

  for (let repetition = 0; repetition < repetitions; repetition++) {
    const rawPk = `bench-raw-${repetition}-${Date.now()}`;
    const referencePk = `bench-reference-${repetition}-${Date.now()}`;
    const referenceWrite = operationText({ call: 'writeChunks', pk: referencePk, data });
    let chunks = 0;
    let id = '';
    let read: string | undefined;
    await inTurn(repetition, [
      async () => {
        times.rawWrite.push(await timed(async () => void (chunks = await writeRawChunks(rawPk, data))));
      },
      async () => {
        times.referenceWrite.push(await timed(async () => void (await askReference(referenceWrite))));
      },
      async () => {
        times.create.push(
          await timed(async () => {
            const created = await api<{ id: string }>('POST', '/secrets', {
              key: owner.key,
              rawBody: body,
              headers: { 'content-type': 'application/json' },
              baseUrl: targets.localMode,
            });
            if (created.status !== 201) throw new Error(`5 MiB create answered ${created.status}`);
            id = created.body.id;
            handlerTimes.create.push(handlerMs(created.headers));
          }),
        );
      },
    ]);

    await inTurn(repetition, [
      async () => {
        times.rawRead.push(await timed(async () => void (read = await readRawChunks(rawPk, chunks))));
        expectData(read, 'raw');
      },
      async () => {
        const referenceRead = operationText({ call: 'readChunks', pk: referencePk, chunks });
        times.referenceRead.push(await timed(async () => void ({ data: read } = await askReference(referenceRead))));
        expectData(read, 'reference');
      },
      async () => {
        times.claim.push(
          await timed(async () => {
            const claimed = await api<{ data: string }>('GET', `/secrets/${id}`, { key: owner.key, baseUrl: targets.localMode });
            if (claimed.status !== 200) throw new Error(`5 MiB claim answered ${claimed.status}`);
            read = claimed.body.data;
            handlerTimes.claim.push(handlerMs(claimed.headers));
          }),
        );
        expectData(read, 'claim');
      },
    ]);
    await deleteRawChunks(rawPk, chunks);
    await deleteRawChunks(referencePk, chunks);
  }

  const result = {
    createMs: median(times.create),
    rawWriteMs: median(times.rawWrite),
    referenceWriteMs: median(times.referenceWrite),
    claimMs: median(times.claim),
    rawReadMs: median(times.rawRead),
    referenceReadMs: median(times.referenceRead),
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
