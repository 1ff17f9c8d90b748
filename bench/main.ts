import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { estimateCosts, MEASURED_REQUESTS, type MeasuredRequest } from './cost';
import { measureColdStarts } from './cold-start';
import type { LocalServer } from '../test/support/local-server';
import { startBenchEnvironment } from './environment';
import { measureLargePayloads } from './large-payloads';
import { deliveryMsFromLog, measureFanOutMs } from './pipeline-handlers';
import { renderReport, type BenchResults } from './report';
import { measureRoundTrips, type RoundTripResult } from './round-trips';
import { measureWarmLatency, warmUntilCompiled } from './warm-latency';
import { measureWebhookLatency } from './webhook-latency';

/**
 * `npm run bench`: starts local mode on its own DynamoDB Local, measures, and writes
 * docs/performance.md and docs/performance.json. Sized to finish in a few minutes on 2 cores.
 */

const WARM_REQUESTS_PER_ROUTE = 800;
const LARGE_PAYLOAD_REPETITIONS = 9;
const WEBHOOK_SECRETS = 100;
const FAN_OUT_INVOCATIONS = 60;
const DOCS = path.resolve(__dirname, '../docs');

const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  console.log(`${name} ...`);
  const result = await work();
  console.log(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
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

async function main(): Promise<void> {
  const started = new Date();
  const environment = await step('starting DynamoDB Local and the reference server', startBenchEnvironment);
  const withLocalMode = async <T>(requestLog: boolean, work: (server: LocalServer) => Promise<T>): Promise<T> => {
    const server = await environment.startLocalMode({ requestLog });
    try {
      return await work(server);
    } finally {
      await server.stop();
    }
  };
  try {
    // Local mode's request log and usage accounting have no counterpart in the deployed functions:
    // latency is timed without them, and they count the calls and units afterwards. The warm-up
    // comes first so that every figure after it, cold starts included, meets a DynamoDB Local
    // that has finished compiling.
    const { warmUp, warmLatency } = await withLocalMode(false, async (server) => {
      const origins = { localMode: new URL(server.baseUrl).origin, reference: environment.reference.baseUrl };
      const cpu = environment.cpuMeter(server);
      return {
        warmUp: await step('warm-up', () => warmUntilCompiled(origins, cpu)),
        warmLatency: await step('warm latency', () => measureWarmLatency(origins, WARM_REQUESTS_PER_ROUTE, cpu)),
      };
    });
    const coldStarts = await step('cold init per handler', () => measureColdStarts(environment));
    const { roundTrips, largePayloads, webhooks, fanOutMs, deliveryMs } = await withLocalMode(true, async (server) => {
      const { baseUrl } = server;
      const measured = {
        roundTrips: await step('DynamoDB round trips', () => measureRoundTrips(baseUrl)),
        largePayloads: await step('5 MiB payloads', () => measureLargePayloads({ localMode: baseUrl, reference: environment.reference.baseUrl }, LARGE_PAYLOAD_REPETITIONS)),
        webhooks: await step('webhook latency', () => measureWebhookLatency(baseUrl, environment.dynamoDbEndpoint, WEBHOOK_SECRETS)),
        fanOutMs: await step('fan-out handler time', () => measureFanOutMs(FAN_OUT_INVOCATIONS)),
      };
      return { ...measured, deliveryMs: deliveryMsFromLog(server.output()) };
    });

    const deletionUnits = (size: string): number =>
      roundTripNamed(roundTrips, `DELETE /secrets/:id ${size}`).usage.writeUnits - roundTripNamed(roundTrips, 'GET /keys').usage.writeUnits;
    const warmP50 = (name: string): number => warmLatency.find((result) => result.name === name)?.http.p50 ?? NaN;
    const costs = estimateCosts({
      requests: [
        costRequest(roundTrips, 'POST /secrets 1 KB', MEASURED_REQUESTS.create1Kb, warmP50('POST /secrets 1 KB')),
        costRequest(roundTrips, 'GET /secrets/:id 1 KB, last view', MEASURED_REQUESTS.claim1Kb, warmP50('GET /secrets/:id 1 KB (last view)')),
        costRequest(roundTrips, 'GET /keys', MEASURED_REQUESTS.readKey, warmP50('GET /keys')),
        costRequest(roundTrips, 'POST /secrets 5 MiB', MEASURED_REQUESTS.create5MiB, largePayloads.createMs),
        costRequest(roundTrips, 'GET /secrets/:id 5 MiB, last view', MEASURED_REQUESTS.claim5MiB, largePayloads.claimMs),
      ],
      pipeline: {
        // A revocation deletes exactly what the fan-out deletes after the last view; less its authentication.
        deletionWriteUnits: { secret1Kb: deletionUnits('1 KB'), secret5MiB: deletionUnits('5 MiB') },
        fanOutMsPerBatch: fanOutMs,
        deliveryMsPerJob: deliveryMs,
      },
    });

    const results: BenchResults = {
      startedAt: started.toISOString(),
      durationS: Math.round((Date.now() - started.getTime()) / 1000),
      roundTrips,
      coldStarts,
      warmUp,
      warmLatency,
      largePayloads,
      webhooks,
      costs,
    };
    await mkdir(DOCS, { recursive: true });
    await writeFile(path.join(DOCS, 'performance.json'), `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(path.join(DOCS, 'performance.md'), renderReport(results));
    console.log(`wrote docs/performance.md and docs/performance.json in ${results.durationS} s`);
  } finally {
    await environment.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
