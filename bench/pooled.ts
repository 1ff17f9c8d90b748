import { LARGE_PAYLOAD_BUDGET, type LargePayloadResult } from './large-payloads';
import { judgeInterval, pairedRatioInterval, roundsPercentileRatios, type IntervalVerdict, type JudgedInterval, type RatioInterval } from './stats';
import { WARM_LATENCY_BUDGET, type WarmLatencyResult } from './warm-latency';

/**
 * Verdicts on the samples of several runs pooled (docs/decisions/cold-start-module-evaluation.md):
 * an interval per figure, judged whole against its budget. Shared by the cold-start rows
 * (bench/cold-start/pooled.ts), and here for warm latency and the 5 MiB payloads.
 */

/** One verdict over many intervals: a miss if any misses, a pass if all pass. */
export function verdictOfAll(intervals: readonly JudgedInterval[]): IntervalVerdict {
  if (intervals.some((interval) => interval.verdict === 'miss')) return 'miss';
  return intervals.every((interval) => interval.verdict === 'pass') ? 'pass' : 'cannot tell';
}

/** How many intervals give each verdict, e.g. "9 pass, 2 miss, 4 cannot tell". */
export function countVerdicts(intervals: readonly JudgedInterval[]): string {
  const count = (verdict: IntervalVerdict): number => intervals.filter((interval) => interval.verdict === verdict).length;
  return `${count('pass')} pass, ${count('miss')} miss, ${count('cannot tell')} cannot tell`;
}

export const intervalCell = (interval: RatioInterval): string =>
  `${interval.ratio.toFixed(2)}× (${interval.low.toFixed(2)}–${interval.high.toFixed(2)})`;
export const VERDICT_CELLS: Record<IntervalVerdict, string> = { pass: 'pass', miss: '**miss**', 'cannot tell': 'cannot tell' };

export interface PooledWarmLatency {
  name: string;
  /** Rounds pooled, each a block of each side. */
  rounds: number;
  p50: JudgedInterval;
  p99: JudgedInterval;
}

/** Each route of the last run, its rounds in every run that has it pooled, local mode ÷ the reference at p50 and p99. */
export function pooledWarmLatency(runs: readonly (readonly WarmLatencyResult[])[]): PooledWarmLatency[] {
  return (runs.at(-1) ?? []).map(({ name }) => {
    const rounds = runs
      .flatMap((results) => results.find((result) => result.name === name)?.rounds ?? [])
      .map((round) => ({ measured: round.localMode, baseline: round.reference }));
    const [p50, p99] = roundsPercentileRatios(rounds, [50, 99]) as [RatioInterval, RatioInterval];
    return {
      name,
      rounds: rounds.length,
      p50: judgeInterval(p50, WARM_LATENCY_BUDGET.p50),
      p99: judgeInterval(p99, WARM_LATENCY_BUDGET.p99),
    };
  });
}

export interface PooledLargePayloads {
  /** Pairs pooled per operation. */
  pairs: number;
  create: JudgedInterval;
  claim: JudgedInterval;
}

/** The 5 MiB create and claim of every run pooled: the median of the pairs' ratios, with its interval. */
export function pooledLargePayloads(runs: readonly LargePayloadResult[]): PooledLargePayloads {
  const pooled = (operation: 'create' | 'claim'): JudgedInterval =>
    judgeInterval(
      pairedRatioInterval(
        runs.flatMap((run) => run[operation].samples.localMode),
        runs.flatMap((run) => run[operation].samples.reference),
      ),
      LARGE_PAYLOAD_BUDGET,
    );
  return { pairs: runs.reduce((total, run) => total + run.create.samples.localMode.length, 0), create: pooled('create'), claim: pooled('claim') };
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

export function renderPooledLatencies(warm: readonly PooledWarmLatency[], large: PooledLargePayloads, runCount: number): string {
  const roundsPerRoute = Math.min(...warm.map((row) => row.rounds));
  return [
    `Proposed verdict for the latency budgets: every sample of the ${plural(runCount, 'run')} pooled. Warm latency: ${plural(roundsPerRoute, 'round')} per route, each a block of each side back to back; local mode's percentile over all of them ÷ the reference's, with a 95% interval from resampling whole rounds (bench/stats.ts), judged as the cold starts are. 5 MiB: ${plural(large.pairs, 'pair')} per operation, the median of the pairs' ratios with its 95% bootstrap interval.`,
    '',
    `| route | p50 ÷ reference (95% interval) | ≤ ${WARM_LATENCY_BUDGET.p50.toFixed(2)}× | p99 ÷ reference (95% interval) | ≤ ${WARM_LATENCY_BUDGET.p99.toFixed(2)}× |`,
    '|---|---|---|---|---|',
    ...warm.map(
      (row) =>
        `| ${row.name} | ${intervalCell(row.p50)} | ${VERDICT_CELLS[row.p50.verdict]} | ${intervalCell(row.p99)} | ${VERDICT_CELLS[row.p99.verdict]} |`,
    ),
    '',
    `| 5 MiB operation | ÷ reference (95% interval) | ≤ ${LARGE_PAYLOAD_BUDGET.toFixed(2)}× |`,
    '|---|---|---|',
    `| create | ${intervalCell(large.create)} | ${VERDICT_CELLS[large.create.verdict]} |`,
    `| claim (last view) | ${intervalCell(large.claim)} | ${VERDICT_CELLS[large.claim.verdict]} |`,
  ].join('\n');
}
