import os from 'node:os';
import { renderSignInCalls, type SignInCallsRow } from './sign-in-calls';
import { renderSignInCost, type SignInCost } from './sign-in-cost';
import { DATA_CHUNK_BYTES } from '#contract/limits';
import { ROUND_TRIP_BUDGET } from '#test/support/round-trip-cases';
import { COLD_START_BUDGET, renderColdStarts, type ColdStartResult } from './cold-start';
import { pooledColdStarts, renderPooledColdStarts, type PooledColdStarts } from './cold-start/pooled';
import {
  countVerdicts,
  intervalCell,
  pooledLargePayloads,
  pooledWarmLatency,
  renderPooledLatencies,
  VERDICT_CELLS,
  verdictOfAll,
  type PooledLargePayloads,
  type PooledWarmLatency,
} from './pooled';
import { renderCosts, type CostReport } from './cost';
import { PAIRS_PER_REPETITION, SETTLE_MS, type LargePayloadFigure, type LargePayloadResult } from './large-payloads';
import type { ReceiptCost } from './receipts';
import type { RoundTripResult } from './round-trips';
import { enoughRuns, MIN_SPREAD_MINUTES, RUNS_JUDGED, spreadMinutes, verdictOver, type BenchRun } from './history';
import type { Judged, JudgedInterval, Repeated } from './stats';
import { CONNECTIONS, REQUESTS_PER_REPETITION, ROUNDS_PER_REPETITION, WARM_LATENCY_BUDGET, type WarmLatencyResult } from './warm-latency';

/**
 * docs/performance.md from the runs docs/performance.json keeps (bench/history.ts): each budget as
 * every run judged it, and the latest run's figures in full.
 */

/** The host's load averages over 1, 5 and 15 minutes, when the run started and when it ended. */
export interface HostLoad {
  start: number[];
  end: number[];
}

export interface BenchResults {
  startedAt: string;
  durationS: number;
  repetitions: number;
  load: HostLoad;
  roundTrips: RoundTripResult[];
  receipts: ReceiptCost[];
  coldStarts: ColdStartResult;
  warmLatency: WarmLatencyResult[];
  largePayloads: LargePayloadResult;
  costs: CostReport;
  signIn: SignInCost;
  signInCalls: SignInCallsRow[];
}

const mark = (pass: boolean | null): string => (pass === null ? '—' : pass ? 'pass' : '**miss**');
/** A figure over the repetitions: its median, and the spread in brackets. */
const spread = (figure: Repeated): string => `${figure.median} (${figure.min}–${figure.max})`;
const ratioCell = (judged: Judged): string => `${judged.median.toFixed(2)}× (${judged.min.toFixed(2)}–${judged.max.toFixed(2)})`;
const table = (header: string[], rows: (string | number)[][]): string =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node.js ${process.version}`;
}

/** One budget as one run judged it. */
interface BudgetCheck {
  budget: string;
  limit: string;
  measured: string;
  pass: boolean;
}

/** The worst of several judged ratios, and how many pass. */
function worstOf(budget: string, judged: readonly { name: string; ratio: Judged }[]): BudgetCheck {
  const worst = judged.reduce((a, b) => (b.ratio.median > a.ratio.median ? b : a));
  const passing = judged.filter((each) => each.ratio.pass).length;
  return {
    budget,
    limit: `≤ ${worst.ratio.budget.toFixed(2)}×`,
    measured: `${passing} of ${judged.length} pass; worst ${worst.name} ${ratioCell(worst.ratio)}`,
    pass: passing === judged.length,
  };
}

function budgetChecks(results: BenchResults): BudgetCheck[] {
  const budgeted = results.roundTrips.filter((result) => result.budget !== null);
  const warm = (pick: (result: WarmLatencyResult) => Judged) => results.warmLatency.map((result) => ({ name: result.name, ratio: pick(result) }));
  const large = (name: string, figure: LargePayloadFigure): BudgetCheck => ({
    budget: `5 MiB ${name} ÷ the same calls and JSON behind the reference server`,
    limit: `≤ ${figure.ratio.budget.toFixed(2)}×`,
    measured: ratioCell(figure.ratio),
    pass: figure.ratio.pass,
  });
  return [
    {
      budget: 'DynamoDB calls per request, payloads ≤ 300 KB',
      limit: `≤ ${ROUND_TRIP_BUDGET.calls}`,
      measured: `at most ${Math.max(...budgeted.map((result) => result.usage.calls))}`,
      pass: budgeted.every((result) => result.pass),
    },
    worstOf(
      'Cold init (CPU) of each function ÷ its floor (same SDK clients, same calls)',
      results.coldStarts.rows.map((row) => ({ name: row.name, ratio: row.cpu.ratio })),
    ),
    worstOf(
      'Proposed: cold init (CPU) ÷ its house floor (the floor inside middy, Powertools, zod for a body)',
      results.coldStarts.rows.map((row) => ({ name: row.name, ratio: row.house.ratio })),
    ),
    worstOf(
      'Warm p50, local mode ÷ the reference server',
      warm((result) => result.p50),
    ),
    worstOf(
      'Warm p99, local mode ÷ the reference server',
      warm((result) => result.p99),
    ),
    large('create', results.largePayloads.create),
    large('claim (last view)', results.largePayloads.claim),
  ];
}

const VERDICTS = { pass: 'pass', miss: '**miss**', pending: 'pending', 'cannot tell': 'cannot tell' } as const;
const runName = (run: BenchRun, index: number): string => `run ${index + 1}, ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC`;

/** The proposed verdicts' intervals over some runs' samples pooled. */
interface Pooled {
  cold: PooledColdStarts;
  warm: PooledWarmLatency[];
  large: PooledLargePayloads;
}

const pooledOver = (runs: readonly BenchRun[]): Pooled => ({
  cold: pooledColdStarts(
    runs.map((run) => run.coldStarts),
    COLD_START_BUDGET,
  ),
  warm: pooledWarmLatency(runs.map((run) => run.warmLatency)),
  large: pooledLargePayloads(runs.map((run) => run.largePayloads)),
});

/**
 * The proposed budgets, judged on the runs' samples pooled: each run's own intervals, then the
 * verdict of all runs pooled, once there are enough runs spread far enough.
 */
function pooledBudgets(runs: readonly BenchRun[], pooled: Pooled): (string | number)[][] {
  const perRun = runs.map((run) => pooledOver([run]));
  const verdict = (intervals: readonly JudgedInterval[]): string => {
    const found = verdictOfAll(intervals);
    return VERDICTS[found === 'pass' && !enoughRuns(runs) ? 'pending' : found];
  };
  const limit = (intervals: readonly JudgedInterval[]): string => `≤ ${(intervals[0]?.budget ?? Number.NaN).toFixed(2)}×, all of the 95% interval`;
  const many = (name: string, side: (each: Pooled) => JudgedInterval[]): (string | number)[] => [
    name,
    limit(side(pooled)),
    ...perRun.map((each) => `${countVerdicts(side(each))} (this run's samples)`),
    `${verdict(side(pooled))}: ${countVerdicts(side(pooled))}`,
  ];
  const one = (name: string, side: (each: Pooled) => JudgedInterval): (string | number)[] => [
    name,
    limit([side(pooled)]),
    ...perRun.map((each) => `${VERDICT_CELLS[side(each).verdict]}: ${intervalCell(side(each))} (this run's samples)`),
    `${verdict([side(pooled)])}: ${intervalCell(side(pooled))}`,
  ];
  return [
    many('Proposed: cold init (CPU) ÷ its floor, all samples of the runs pooled', (each) => each.cold.rows.map((row) => row.floor)),
    many('Proposed: cold init (CPU) ÷ its house floor, all samples of the runs pooled', (each) => each.cold.rows.map((row) => row.house)),
    many('Proposed: warm p50 ÷ the reference server, all rounds of the runs pooled', (each) => each.warm.map((row) => row.p50)),
    many('Proposed: warm p99 ÷ the reference server, all rounds of the runs pooled', (each) => each.warm.map((row) => row.p99)),
    one('Proposed: 5 MiB create ÷ the reference server, all pairs of the runs pooled', (each) => each.large.create),
    one('Proposed: 5 MiB claim (last view) ÷ the reference server, all pairs of the runs pooled', (each) => each.large.claim),
  ];
}

/** Each budget in each run, and its verdict over the runs. */
function summary(runs: readonly BenchRun[], pooled: Pooled): string {
  const checks = runs.map(budgetChecks);
  return table(
    ['budget', 'limit', ...runs.map(runName), `verdict over ${RUNS_JUDGED} runs`],
    [
      ...(checks[0] ?? []).map((check, index) => {
        const perRun = checks.map((run) => run[index] as BudgetCheck);
        return [
          check.budget,
          check.limit,
          ...perRun.map((each) => `${mark(each.pass)}: ${each.measured}`),
          VERDICTS[
            verdictOver(
              runs,
              perRun.map((each) => each.pass),
            )
          ],
        ];
      }),
      ...pooledBudgets(runs, pooled),
    ],
  );
}

/** Per function or route, its ratio in each run, and the verdict over the runs. */
function ratiosOverRuns(title: string, runs: readonly BenchRun[], rowsOf: (run: BenchRun) => { name: string; ratio: Judged }[]): string {
  const perRun = runs.map(rowsOf);
  return table(
    [title, ...runs.map(runName), 'verdict'],
    (perRun.at(-1) ?? []).map(({ name }) => {
      const ratios = perRun.map((rows) => rows.find((row) => row.name === name)?.ratio);
      return [
        name,
        ...ratios.map((ratio) => (ratio ? `${ratioCell(ratio)} ${mark(ratio.pass)}` : '—')),
        VERDICTS[
          verdictOver(
            runs,
            ratios.map((ratio) => ratio?.pass ?? false),
          )
        ],
      ];
    }),
  );
}

function roundTrips(results: readonly RoundTripResult[]): string {
  return [
    '## 1. DynamoDB round trips and consumed capacity per request',
    '',
    "One request per row through local mode (`test/support/round-trip-cases.ts`), after its fixtures were made. Calls are counted by an SDK middleware; capacity is what DynamoDB Local reported with `ReturnConsumedCapacity: TOTAL` (failed conditional writes report none). `test/integration/round-trips.test.ts` pins every row's call count, so CI fails on a change; counting is deterministic, so one run suffices. Handler ms is the handler's own time for that one request (local mode's `x-local-handler-ms`).",
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
    "A claim's last view is the same one conditional UpdateItem as any other; the secrets table's stream consumer deletes the secret (one DeleteItem, plus a BatchWriteItem of chunks) once no views and no chunk readers remain. An inline secret's claim costs write units by the size of its head item (DynamoDB bills an update by the larger of the item before and after), which is why a 300 KB claim costs ~300 WCU while a chunked claim costs read units.",
  ].join('\n');
}

function receipts(results: readonly ReceiptCost[]): string {
  return [
    '### Receipts: cost per secret',
    '',
    "Measured by `bench/receipts.ts`: a 1 KB secret used up through local mode; the receipt item the stream consumer then wrote, written again unchanged with `ReturnConsumedCapacity: TOTAL`; its size by DynamoDB's item-size rules, stored with DynamoDB's 100 bytes of per-item overhead. While the secret lives, the head carries only its `viewed` list for the receipt, written by the claim's own update. Status requests are in the table above (`GET /secrets/:id/status`).",
    '',
    table(
      ['views taken', 'receipt WCU', 'receipt item bytes', 'stored bytes (with overhead)', 'head bytes for `viewed`'],
      results.map((r) => [r.views, r.writeUnits, r.itemBytes, r.storedBytes, r.headViewedBytes]),
    ),
  ].join('\n');
}

function warmLatency(results: readonly WarmLatencyResult[]): string {
  return [
    '## 3. Warm latency under load',
    '',
    `Each route, in each repetition: autocannon through local mode (HTTP, API Gateway's event, the handler; started with \`LOCAL_REQUEST_LOG=off\`, so without its request log and the DynamoDB usage accounting behind it, which the deployed functions do not have) against the reference server (\`bench/reference-server.ts\`), which makes the same DynamoDB calls through the same domain and store functions behind a bare Node HTTP server, with no API Gateway event, middleware, validation or response shaping: the least any HTTP API in front of these calls costs on this machine. ${CONNECTIONS} requests in flight against the same DynamoDB Local; ${REQUESTS_PER_REPETITION} measured requests a side, in ${ROUNDS_PER_REPETITION} rounds of a block of each side back to back (the first side turned around every round), after a short warm-up of the route on each side. Every request gets its own fixtures where it consumes one (a secret, a key to revoke), and keys are shared only below their rate limit. Times in ms, median of the repetitions' percentiles (min–max); a repetition's ratio is of its two percentiles.`,
    '',
    table(
      ['route', 'local mode p50', 'reference p50', 'p50 ratio', 'p50', 'local mode p99', 'reference p99', 'p99 ratio', 'p99'],
      results.map((r) => [
        r.name,
        spread(r.localMode.p50),
        spread(r.reference.p50),
        ratioCell(r.p50),
        `${mark(r.p50.pass)} (≤ ${r.p50.budget})`,
        spread(r.localMode.p99),
        spread(r.reference.p99),
        ratioCell(r.p99),
        `${mark(r.p99.pass)} (≤ ${r.p99.budget})`,
      ]),
    ),
  ].join('\n');
}

function largePayloads(result: LargePayloadResult): string {
  const row = (name: string, figure: LargePayloadFigure): (string | number)[] => [
    name,
    spread(figure.localModeMs),
    spread(figure.referenceMs),
    ratioCell(figure.ratio),
    `${mark(figure.ratio.pass)} (≤ ${figure.ratio.budget})`,
  ];
  return [
    '## 4. 5 MiB payloads',
    '',
    `A ${result.bodyBytes}-byte body, created and claimed (its last view) through local mode, against the floor: the reference server making the same DynamoDB calls through the same domain functions (the key's authentication, the ${DATA_CHUNK_BYTES.toLocaleString('en-US')}-character chunk items and the head; the view taken and the chunks read) with the same 5 MiB of JSON in its request or its response. ${PAIRS_PER_REPETITION} of each per side and repetition, interleaved (the order turns around every time); each timed operation starts ${SETTLE_MS / 1000} s after the previous one, once local mode's stream poller has read the ~5 MiB of item images the previous write put on the stream. Times in ms, median of the repetitions' medians (min–max).`,
    '',
    table(['operation', 'local mode', 'reference', 'ratio', 'verdict'], [row('create', result.create), row('claim', result.claim)]),
  ].join('\n');
}

const loads = (values: readonly number[]): string => values.map((value) => value.toFixed(2)).join(', ');

const retriedSamples = (count: number): string =>
  count === 1 ? '1 cold-start sample failed and was taken again' : `${count} cold-start samples failed and were taken again`;

function runs(list: readonly BenchRun[]): string {
  return list
    .map(
      (run, index) =>
        `- ${runName(run, index)}: ${run.durationS} s, code ${run.code.commit.slice(0, 12)}${run.code.uncommitted ? ' with uncommitted changes' : ''}; load average (1, 5, 15 min) ${loads(run.load.start)} at the start and ${loads(run.load.end)} at the end; ${retriedSamples(run.coldStarts.retriedSamples)}.`,
    )
    .join('\n');
}

export function renderReport(history: readonly BenchRun[]): string {
  const results = history.at(-1);
  if (!results) throw new Error('no bench run to report');
  const pooled = pooledOver(history);
  return [
    '# Performance and cost',
    '',
    `Written by \`npm run bench\`. Machine: ${machine()}. DynamoDB Local runs on the same machine, which other work shares, so every budget is a ratio against a floor measured alongside it, in ${results.repetitions} repetitions spread over a run, and a run judges it on the median; the spread (min–max) shows how far one repetition can stray. A budget passes only when it passes in each of ${RUNS_JUDGED} runs of the same code, spread over at least ${MIN_SPREAD_MINUTES} minutes (bench/history.ts); \`docs/performance.json\` keeps those runs, and each run replaces the oldest. Absolute times are shown beside the ratios and vary with the machine's load. The runs (${Math.round(spreadMinutes(history))} minutes from the first to the last):`,
    '',
    runs(history),
    '',
    '## Budgets',
    '',
    summary(history, pooled),
    '',
    `Per function and route, each run's ratio (median of its repetitions, min–max):`,
    '',
    ratiosOverRuns(`cold init (CPU) ÷ floor, ≤ ${COLD_START_BUDGET.toFixed(2)}×`, history, (run) =>
      run.coldStarts.rows.map((row) => ({ name: row.name, ratio: row.cpu.ratio })),
    ),
    '',
    ratiosOverRuns(`proposed: cold init (CPU) ÷ house floor, ≤ ${COLD_START_BUDGET.toFixed(2)}×`, history, (run) =>
      run.coldStarts.rows.map((row) => ({ name: row.name, ratio: row.house.ratio })),
    ),
    '',
    renderPooledColdStarts(pooled.cold, history.length),
    '',
    ratiosOverRuns(`warm p50 ÷ reference, ≤ ${WARM_LATENCY_BUDGET.p50.toFixed(2)}×`, history, (run) =>
      run.warmLatency.map((row) => ({ name: row.name, ratio: row.p50 })),
    ),
    '',
    ratiosOverRuns(`warm p99 ÷ reference, ≤ ${WARM_LATENCY_BUDGET.p99.toFixed(2)}×`, history, (run) =>
      run.warmLatency.map((row) => ({ name: row.name, ratio: row.p99 })),
    ),
    '',
    renderPooledLatencies(pooled.warm, pooled.large, history.length),
    '',
    `The sections below show the latest run (${runName(results, history.length - 1)}) in full.`,
    '',
    roundTrips(results.roundTrips),
    '',
    receipts(results.receipts),
    '',
    renderColdStarts(results.coldStarts),
    warmLatency(results.warmLatency),
    '',
    largePayloads(results.largePayloads),
    '',
    renderCosts(results.costs),
    '',
    renderSignInCost(results.signIn),
    renderSignInCalls(results.signInCalls),
  ].join('\n');
}
