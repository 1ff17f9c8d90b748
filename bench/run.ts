import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LocalServer } from '#test/support/local-server';
import { prepareColdStarts, renderColdStarts } from './cold-start';
import { estimateCosts, MEASURED_REQUESTS, type MeasuredRequest } from './cost';
import type { BenchEnvironment } from './environment';
import type { RepeatedMeasurement } from './stats';
import { codeVersion, withRun, type BenchRun } from './history';
import { prepareLargePayloads } from './large-payloads';
import { measureDeliveryMs, measureFanOutMs } from './pipeline-handlers';
import { renderReport } from './report';
import { measureReceiptCosts } from './receipts';
import { measureRoundTrips, type RoundTripResult } from './round-trips';
import { measureSignInCalls, renderSignInCalls, type SignInCallsRow } from './sign-in-calls';
import { measureSignInCost, renderSignInCost, type SignInCost } from './sign-in-cost';
import { prepareWarmLatency, warmUp } from './warm-latency';

/**
 * The measurements of `npm run bench` (bench/main.ts), in an environment already started, and
 * docs/performance.md and docs/performance.json written from them.
 */

/** Each budget is judged on the median of this many repetitions. */
const REPETITIONS = 3;
/** Unmeasured passes over every route before anything is measured, and rounds of each route in each pass. */
const WARM_UP_PASSES = 2;
const WARM_UP_ROUNDS = 2;
const FAN_OUT_INVOCATIONS = 60;
const DELIVERY_INVOCATIONS = 30;
const DOCS = path.resolve(__dirname, '../docs');

/** Runs one step of the bench, timed; a step that fails is named on stderr beside its error. */
const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  const seconds = (): string => ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${name} ...`);
  try {
    const result = await work();
    console.log(`${name}: ${seconds()} s`);
    return result;
  } catch (error) {
    console.error(`${name}: failed after ${seconds()} s`);
    throw error;
  }
};

function roundTripNamed(roundTrips: readonly RoundTripResult[], caseName: string): RoundTripResult {
  const measured = roundTrips.find((result) => result.name === caseName);
  if (!measured) throw new Error(`no round-trip case ${caseName}`);
  return measured;
}

function costRequest(roundTrips: readonly RoundTripResult[], caseName: string, costName: string, handlerMs: number): MeasuredRequest {
  const measured = roundTripNamed(roundTrips, caseName);
  return {
    name: costName,
    readUnits: measured.usage.readUnits,
    writeUnits: measured.usage.writeUnits,
    handlerMs,
    requestBytes: /^(POST|PATCH)/.test(caseName) ? measured.payloadBytes : 0,
    responseBytes: measured.responseBytes,
  };
}

const HISTORY_FILE = path.join(DOCS, 'performance.json');

/** The runs docs/performance.json holds; none when it is missing or from before the bench kept several. */
async function storedRuns(): Promise<{ runs?: BenchRun[] } | undefined> {
  const text = await readFile(HISTORY_FILE, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return text === undefined ? undefined : (JSON.parse(text) as { runs?: BenchRun[] });
}

/** Indented JSON, but each array of numbers on one line: the runs keep tens of thousands of samples. */
const historyJson = (runs: readonly BenchRun[]): string =>
  JSON.stringify({ runs }, null, 2).replace(
    /\[\n\s+(-?[\d.e+]+(?:,\n\s+-?[\d.e+]+)*)\n\s+\]/g,
    (_, numbers: string) => `[${numbers.split(/,\n\s+/).join(', ')}]`,
  );

/** What createAccess=signed-in costs: the token's verification, and DynamoDB calls against an open deployment's. */
async function measureSignIn(environment: BenchEnvironment): Promise<{ signIn: SignInCost; signInCalls: SignInCallsRow[] }> {
  const signIn = await step('sign-in token verification', () => measureSignInCost());
  const signInCalls = await step('DynamoDB calls, open and signed-in', () =>
    measureSignInCalls((createAccess) => environment.startLocalMode({ requestLog: true, createAccess })),
  );
  return { signIn, signInCalls };
}

/** `npm run bench -- --only sign-in`: the signed-in section alone, printed rather than written to docs/. */
export async function runSignInBench(environment: BenchEnvironment): Promise<void> {
  const { signIn, signInCalls } = await measureSignIn(environment);
  console.log(`\n${renderSignInCost(signIn)}\n${renderSignInCalls(signInCalls)}`);
  const adding = signInCalls.filter((row) => row.signedIn !== row.open);
  if (adding.length > 0) throw new Error(`signed-in changes the DynamoDB calls of ${adding.map((row) => row.name).join(', ')}`);
}

/** `npm run bench -- --only cold-start`: the cold-start section alone (about 2 minutes), printed rather than written to docs/. */
export async function runColdStartBench(environment: BenchEnvironment): Promise<void> {
  const cold = await step('building the cold-start bundles', () => prepareColdStarts(environment));
  try {
    for (let repetition = 1; repetition <= REPETITIONS; repetition++) {
      await step(`cold init per function, repetition ${repetition} of ${REPETITIONS}`, () => cold.measureOnce());
    }
    console.log(`\n${renderColdStarts(cold.result())}`);
  } finally {
    await cold.stop();
  }
}

/** `started` and `loadAtStart`: when the bench began, before its environment was started. */
export async function runBench(environment: BenchEnvironment, started: Date, loadAtStart: number[]): Promise<void> {
  // Before measuring: the code measured is the code at the start.
  const code = codeVersion();
  const withLocalMode = async <T>(requestLog: boolean, work: (server: LocalServer) => Promise<T>): Promise<T> => {
    const server = await environment.startLocalMode({ requestLog });
    try {
      return await work(server);
    } finally {
      await server.stop();
    }
  };
  // Local mode's request log and usage accounting have no counterpart in the deployed functions:
  // every time is taken without them, and they count the calls and units afterwards.
  const timed = await withLocalMode(false, async (server) => {
    const origins = { localMode: new URL(server.baseUrl).origin, reference: environment.reference.baseUrl };
    await step('warm-up of DynamoDB Local', () => warmUp(origins, WARM_UP_PASSES, WARM_UP_ROUNDS));
    const warm = prepareWarmLatency(origins);
    const large = await prepareLargePayloads({ localMode: server.baseUrl, reference: environment.reference.baseUrl });
    const cold = await step('building the cold-start bundles', () => prepareColdStarts(environment));
    const measurements: [string, RepeatedMeasurement<unknown>][] = [
      ['warm latency', warm],
      ['5 MiB payloads', large],
      ['cold init per function', cold],
    ];
    try {
      // Interleaved: a burst of load from elsewhere falls on one repetition of each figure.
      for (let repetition = 1; repetition <= REPETITIONS; repetition++) {
        for (const [name, measurement] of measurements) {
          await step(`${name}, repetition ${repetition} of ${REPETITIONS}`, () => measurement.measureOnce());
        }
      }
      return { warmLatency: warm.result(), largePayloads: large.result(), coldStarts: cold.result() };
    } finally {
      for (const [, measurement] of measurements) await measurement.stop();
    }
  });
  const { roundTrips, receipts } = await withLocalMode(true, async (server) => ({
    roundTrips: await step('DynamoDB round trips', () => measureRoundTrips(server.baseUrl)),
    receipts: await step('receipt cost per secret', () => measureReceiptCosts(server.baseUrl, environment.handlerEnv)),
  }));
  const fanOutMs = await step('fan-out handler time', () => measureFanOutMs(FAN_OUT_INVOCATIONS));
  const deliveryMs = await step('delivery handler time', () => measureDeliveryMs(DELIVERY_INVOCATIONS));
  const { signIn, signInCalls } = await measureSignIn(environment);

  const deletionUnits = (size: string): number =>
    roundTripNamed(roundTrips, `DELETE /secrets/:id ${size}`).usage.writeUnits - roundTripNamed(roundTrips, 'GET /keys').usage.writeUnits;
  const warmP50 = (name: string): number => {
    const measured = timed.warmLatency.find((result) => result.name === name);
    if (!measured) throw new Error(`no warm-latency route ${name}`);
    return measured.localMode.p50.median;
  };
  const costs = estimateCosts({
    requests: [
      costRequest(roundTrips, 'POST /secrets 1 KB', MEASURED_REQUESTS.create1Kb, warmP50('POST /secrets 1 KB')),
      costRequest(roundTrips, 'GET /secrets/:id 1 KB, last view', MEASURED_REQUESTS.claim1Kb, warmP50('GET /secrets/:id 1 KB (last view)')),
      costRequest(roundTrips, 'GET /keys', MEASURED_REQUESTS.readKey, warmP50('GET /keys')),
      costRequest(roundTrips, 'POST /secrets 5 MiB', MEASURED_REQUESTS.create5MiB, timed.largePayloads.create.localModeMs.median),
      costRequest(roundTrips, 'GET /secrets/:id 5 MiB, last view', MEASURED_REQUESTS.claim5MiB, timed.largePayloads.claim.localModeMs.median),
    ],
    pipeline: {
      // A revocation deletes exactly what the fan-out deletes after the last view; less its authentication.
      deletionWriteUnits: { secret1Kb: deletionUnits('1 KB'), secret5MiB: deletionUnits('5 MiB') },
      fanOutMsPerBatch: fanOutMs,
      deliveryMsPerJob: deliveryMs,
    },
  });

  const results: BenchRun = {
    code,
    startedAt: started.toISOString(),
    durationS: Math.round((Date.now() - started.getTime()) / 1000),
    repetitions: REPETITIONS,
    load: { start: loadAtStart, end: os.loadavg() },
    roundTrips,
    receipts,
    ...timed,
    costs,
    signIn,
    signInCalls,
  };
  await mkdir(DOCS, { recursive: true });
  const history = withRun(await storedRuns(), results);
  await writeFile(HISTORY_FILE, `${historyJson(history)}\n`);
  await writeFile(path.join(DOCS, 'performance.md'), renderReport(history));
  console.log(`wrote docs/performance.md and docs/performance.json in ${results.durationS} s: ${history.length} run(s) of this code`);
}
