import os from 'node:os';
import { DATA_CHUNK_BYTES } from '../lambdas/definitions/limits';
import { renderColdStarts, type ColdStartResult } from './cold-start';
import { renderCosts, type CostReport } from './cost';
import { LARGE_PAYLOAD_BUDGET, SETTLE_MS, type LargePayloadResult } from './large-payloads';
import { type RoundTripResult } from './round-trips';
import { ROUND_TRIP_BUDGET } from '../test/support/round-trip-cases';
import type { Verdict } from './stats';
import { CONNECTIONS, WARM_LATENCY_BUDGET, WARM_UP_SETTLED_SHARE, type WarmLatencyResult, type WarmUpResult } from './warm-latency';
import type { WebhookLatencyResult } from './webhook-latency';

/** docs/performance.md from one run's figures; the same figures go to docs/performance.json. */

export interface BenchResults {
  startedAt: string;
  durationS: number;
  roundTrips: RoundTripResult[];
  coldStarts: ColdStartResult;
  warmUp: WarmUpResult;
  warmLatency: WarmLatencyResult[];
  largePayloads: LargePayloadResult;
  webhooks: WebhookLatencyResult;
  costs: CostReport;
}

const mark = (pass: boolean | null): string => (pass === null ? '—' : pass ? 'pass' : '**miss**');
const shown = (v: Verdict): string => `${v.ratio.toFixed(2)}× (${mark(v.pass)})`;
/** A ratio with no budget, as the tables show one. */
const times = (measured: number, baseline: number): string => `${(measured / baseline).toFixed(2)}×`;
const table = (header: string[], rows: (string | number)[][]): string =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node.js ${process.version}`;
}

function summary(results: BenchResults): string {
  const budgeted = results.roundTrips.filter((result) => result.budget !== null);
  const worstCalls = Math.max(...budgeted.map((result) => result.usage.calls));
  const cold = results.coldStarts.handlers;
  const worstCold = Math.max(...cold.map((handler) => handler.ratio));
  const warm = results.warmLatency;
  const worst = (pick: (result: WarmLatencyResult) => Verdict): number => Math.max(...warm.map((result) => pick(result).ratio));
  const rows: (string | number)[][] = [
    ['DynamoDB calls per request, payloads ≤ 300 KB', `≤ ${ROUND_TRIP_BUDGET.calls}`, `at most ${worstCalls}`, mark(budgeted.every((r) => r.pass))],
    ['Cold init vs DynamoDBDocumentClient-only bundle', `≤ 1.15×`, `worst ${worstCold.toFixed(2)}×`, mark(cold.every((h) => h.pass))],
    ['Warm p50 vs direct DynamoDB calls', `≤ ${WARM_LATENCY_BUDGET}×`, `worst ${worst((r) => r.p50).toFixed(2)}×`, mark(warm.every((r) => r.p50.pass))],
    ['Warm p99 vs direct DynamoDB calls', `≤ ${WARM_LATENCY_BUDGET}×`, `worst ${worst((r) => r.p99).toFixed(2)}×`, mark(warm.every((r) => r.p99.pass))],
    ['5 MiB create vs raw write of the same bytes', `≤ ${LARGE_PAYLOAD_BUDGET}×`, `${results.largePayloads.create.ratio.toFixed(2)}×`, mark(results.largePayloads.create.pass)],
    ['5 MiB claim vs raw read of the same bytes', `≤ ${LARGE_PAYLOAD_BUDGET}×`, `${results.largePayloads.claim.ratio.toFixed(2)}×`, mark(results.largePayloads.claim.pass)],
  ];
  return table(['budget', 'limit', 'measured', 'verdict'], rows);
}

function roundTrips(results: readonly RoundTripResult[]): string {
  return [
    '## 1. DynamoDB round trips and consumed capacity per request',
    '',
    'One request per row through local mode, after its fixtures were made. Calls are counted by an SDK middleware; capacity is what DynamoDB Local reported with `ReturnConsumedCapacity: TOTAL` (failed conditional writes report none). `test/integration/round-trips.test.ts` pins every row\'s call count, so CI fails on a change. Handler ms is the handler\'s own time for that one request (local mode\'s `x-local-handler-ms`).',
    '',
    table(
      ['request', 'payload', 'calls', 'budget', 'RCU', 'WCU', 'handler ms', 'verdict'],
      results.map((r) => [
        r.name,
        r.payloadBytes === 0 ? '—' : `${(r.payloadBytes / 1024).toFixed(0)} KiB`,
        r.usage.calls,
        r.budget === null ? 'not budgeted (> 300 KB)' : `≤ ${r.budget}`,
        r.usage.readUnits,
        r.usage.writeUnits,
        r.handlerMs.toFixed(1),
        mark(r.pass),
      ]),
    ),
    '',
    'A claim no longer deletes what it consumes: the last view is the same one conditional UpdateItem as any other, and the secrets table\'s stream consumer deletes the secret (one DeleteItem, plus a BatchWriteItem of chunks) once no views and no chunk readers remain. Before this change the last-view claim made 3 calls and a 5 MiB last view 5. An inline secret\'s claim costs write units by the size of its head item (DynamoDB bills an update by the larger of the item before and after), which is why a 300 KB claim costs ~300 WCU while a chunked claim costs read units.',
  ].join('\n');
}

/** How warm the measurements found DynamoDB Local: how long its JVM went on compiling. */
function warmUpRounds(result: WarmUpResult): string {
  const compiled = result.rounds.map((round) => (round.compilerMs === undefined ? `${round.seconds} s` : `${round.compilerMs} ms in ${round.seconds} s`));
  const outcome =
    result.settled === null
      ? 'Without /proc there is no compiler meter, so it ran every round.'
      : result.settled
        ? `The last round compiled for under ${WARM_UP_SETTLED_SHARE * 100}% of its time, so the JVM counts as warm.`
        : `**Even the last round compiled for more than ${WARM_UP_SETTLED_SHARE * 100}% of its time**: the figures below include a JVM still compiling.`;
  return `Before any figure in this report was measured (cold starts included), the bench ran rounds of every route of section 3 on every side, ${result.requestsPerRound} requests a round, until DynamoDB Local's JIT compiler threads had stopped: a fresh JVM spends up to a core of this machine compiling its hot paths for its first tens of thousands of requests, and DynamoDB itself is never cold like that. Compiler CPU per round: ${compiled.join('; ')}. ${outcome}`;
}

function warmLatency(results: readonly WarmLatencyResult[]): string {
  return [
    '## 3. Warm latency under load',
    '',
    `Each route: autocannon through local mode (HTTP, API Gateway's event, the handler; started with \`LOCAL_REQUEST_LOG=off\`, so without its request log and the DynamoDB usage accounting behind it, which the deployed functions do not have) against the same DynamoDB calls made straight from the bench process through the same store functions, all ${CONNECTIONS} at a time against the same DynamoDB Local, after the JVM's warm-up (above) and a warm-up of the route on each side; blocks run direct, local mode, reference, reference, local mode, direct, twice. Every request gets its own fixtures where it consumes one (a secret, a key to revoke), and keys are shared only below their rate limit. Times in ms.`,
    '',
    table(
      ['route', 'samples', 'local mode p50', 'direct p50', 'p50 ratio', 'local mode p99', 'direct p99', 'p99 ratio'],
      results.map((r) => [r.name, r.http.samples, r.http.p50, r.direct.p50, shown(r.p50), r.http.p99, r.direct.p99, shown(r.p99)]),
    ),
    '',
    `The reference: the same DynamoDB calls, through the same functions, behind a bare Node HTTP server (\`bench/reference-server.ts\`: no API Gateway event, middleware, validation or response shaping), loaded by autocannon like local mode. It is what any HTTP API in front of these calls costs on this machine; "reference ÷ direct" is that floor, "local mode ÷ reference" what the API layer adds to it.`,
    '',
    table(
      ['route', 'reference p50', 'reference ÷ direct', 'local mode ÷ reference', 'reference p99', 'reference ÷ direct', 'local mode ÷ reference'],
      results.map((r) => [
        r.name,
        r.reference.p50,
        times(r.reference.p50, r.direct.p50),
        times(r.http.p50, r.reference.p50),
        r.reference.p99,
        times(r.reference.p99, r.direct.p99),
        times(r.http.p99, r.reference.p99),
      ]),
    ),
    ...cpuPerRequest(results),
  ].join('\n');
}

/** Why the ratios are what they are: with more requests in flight than cores, latency follows the CPU a request costs. */
function cpuPerRequest(results: readonly WarmLatencyResult[]): string[] {
  const sides = [
    ['local mode', 'http'],
    ['reference', 'reference'],
    ['direct', 'direct'],
  ] as const;
  const rows = results.flatMap(({ name, cpu }) =>
    cpu
      ? sides.map(([label, side]) => {
          const spent = cpu[side];
          return [name, label, spent.bench, spent.localMode, spent.reference, spent.dynamoDb, spent.dynamoDbCompiler, spent.total, times(spent.total, cpu.direct.total)];
        })
      : [],
  );
  if (rows.length === 0) return [];
  return [
    '',
    `CPU per request, in ms, summed over each side's measured blocks (from /proc): the bench process (autocannon for local mode and the reference, the SDK calls for direct), local mode (Node's HTTP server, the event, the handler and its SDK calls, the stream poller), the reference server and DynamoDB Local's JVM, and of the JVM's, what its JIT compiler threads spent (a JVM still compiling is not warm). ${CONNECTIONS} requests in flight share this machine's cores with all of them, so a side's latency grows with its total.`,
    '',
    table(['route', 'side', 'bench', 'local mode', 'reference server', 'DynamoDB Local', 'of which JIT compiler', 'total', '÷ direct'], rows),
  ];
}

function largePayloads(result: LargePayloadResult): string {
  return [
    '## 4. 5 MiB payloads',
    '',
    `A ${result.bodyBytes}-byte body, ${result.repetitions} times each, interleaved (the order turns around every repetition): create through local mode vs a raw BatchWriteItem of the same bytes in the same ${DATA_CHUNK_BYTES.toLocaleString('en-US')}-character items; claim (last view) through local mode vs a raw consistent BatchGetItem of them. Each timed operation starts ${SETTLE_MS / 1000} s after the previous one, once local mode's stream poller has read the ~5 MiB of item images the previous write put on the stream. Medians in ms. "Of which in the handler" is local mode's own measure of the handler (\`x-local-handler-ms\`); the rest is HTTP and the client: through the API the 5 MiB cross a socket and are parsed twice (client → handler → DynamoDB Local, or back), the raw calls once.`,
    '',
    'The reference makes the same raw calls behind a bare HTTP server (`bench/reference-server.ts`), the 5 MiB travelling as JSON in its request (write) or its response (read): the least any JSON API in front of these calls costs on this machine. "Reference ÷ raw" is that floor; "local mode ÷ reference" is what the API adds to it (authentication, validation, the head item, taking the view and signing off as a reader).',
    '',
    table(
      ['operation', 'local mode', 'of which in the handler', 'reference', 'raw', `ratio (≤ ${LARGE_PAYLOAD_BUDGET}×)`, 'reference ÷ raw', 'local mode ÷ reference'],
      [
        ['create', result.createMs, result.createHandlerMs, result.referenceWriteMs, result.rawWriteMs, shown(result.create), times(result.referenceWriteMs, result.rawWriteMs), times(result.createMs, result.referenceWriteMs)],
        ['claim', result.claimMs, result.claimHandlerMs, result.referenceReadMs, result.rawReadMs, shown(result.claim), times(result.referenceReadMs, result.rawReadMs), times(result.claimMs, result.referenceReadMs)],
      ],
    ),
  ].join('\n');
}

function webhooks(result: WebhookLatencyResult): string {
  return [
    '## 5. Webhook latency',
    '',
    `${result.events} events (secrets of 2 views, each created and claimed twice) from their \`timestamp\` to a receiver on 127.0.0.1, through the stream, the fan-out, the local queue and the delivery handler. Baseline: a second reader of the same stream, polling every 100 ms as local mode's does, timing when it sees the same events. No budget is set; the ratio shows what the pipeline adds to the wait for the stream. On AWS, Lambda polls a shard about 4 times a second.`,
    '',
    table(
      ['', 'p50 ms', 'p99 ms'],
      [
        ['delivered to the receiver', result.delivered.p50, result.delivered.p99],
        ['seen on the stream', result.streamSeen.p50, result.streamSeen.p99],
        ['ratio', result.p50Ratio, result.p99Ratio],
      ],
    ),
  ].join('\n');
}

export function renderReport(results: BenchResults): string {
  return [
    '# Performance and cost',
    '',
    `Written by \`npm run bench\` on ${results.startedAt} in ${results.durationS} s. Machine: ${machine()}. DynamoDB Local runs on the same machine, so every figure is a ratio against a baseline measured in the same run; absolute times are shown alongside and vary with the machine's load.`,
    '',
    warmUpRounds(results.warmUp),
    '',
    '## Budgets',
    '',
    summary(results),
    '',
    roundTrips(results.roundTrips),
    '',
    renderColdStarts(results.coldStarts),
    '',
    warmLatency(results.warmLatency),
    '',
    largePayloads(results.largePayloads),
    '',
    webhooks(results.webhooks),
    '',
    renderCosts(results.costs),
    '',
  ].join('\n');
}
