import { intervalCell, VERDICT_CELLS } from '../pooled';
import { judgeInterval, pairedRatioInterval, type JudgedInterval, type RatioInterval } from '../stats';
import type { ColdStartResult } from './result';

/**
 * The proposed cold-start verdict (docs/decisions/cold-start-module-evaluation.md): every sample
 * of the runs pooled, each against the floor's sample of the same round, the median of those
 * ratios judged by its 95% interval.
 * Three medians of 8 samples each cannot tell 1.05× from 1.15× on this machine; 72 samples a side
 * can tell 1.00× or 1.20× from 1.10×, and say "cannot tell" rather than flip on the rest.
 */

export interface PooledColdStart {
  name: string;
  floor: JudgedInterval;
  house: JudgedInterval;
}

export interface PooledColdStarts {
  /** Samples of each side per function, over the runs pooled. */
  samplesPerSide: number;
  rows: PooledColdStart[];
  /** The A/A row: a floor against a second build of itself; its interval is the day's resolution. */
  aa: { name: string; floor: string; interval: RatioInterval };
}

/** The rows of the last result, each with the samples of every result that has it. */
export function pooledColdStarts(results: readonly ColdStartResult[], budget: number): PooledColdStarts {
  const latest = results.at(-1);
  if (!latest) throw new Error('no cold-start results to pool');
  const pooled = (pick: (result: ColdStartResult) => readonly number[] | undefined): number[] => results.flatMap((result) => pick(result) ?? []);
  const samplesOf = (name: string, side: 'function' | 'floor' | 'houseFloor'): number[] =>
    pooled((result) => result.rows.find((row) => row.name === name)?.samples[side]);
  const rows = latest.rows.map(({ name }) => {
    const measured = samplesOf(name, 'function');
    return {
      name,
      floor: judgeInterval(pairedRatioInterval(measured, samplesOf(name, 'floor')), budget),
      house: judgeInterval(pairedRatioInterval(measured, samplesOf(name, 'houseFloor')), budget),
    };
  });
  return {
    samplesPerSide: Math.min(...latest.rows.map(({ name }) => samplesOf(name, 'function').length)),
    rows,
    aa: {
      name: latest.aa.name,
      floor: latest.aa.floor,
      interval: pairedRatioInterval(
        pooled((result) => result.aa.samples.b),
        pooled((result) => result.aa.samples.a),
      ),
    },
  };
}

export function renderPooledColdStarts(pooled: PooledColdStarts, runCount: number): string {
  return [
    `Proposed verdict (docs/decisions/cold-start-module-evaluation.md): every sample of the ${runCount} run${runCount === 1 ? '' : 's'} pooled, ${pooled.samplesPerSide} a side per function, each divided by its floor's sample of the same round (the two taken back to back, so that the machine's drift between rounds cancels); the median of those ratios with its 95% bootstrap interval. A function passes when the whole interval is within the budget, misses when the whole interval is over it, and otherwise the samples cannot tell. The A/A row times ${pooled.aa.name}'s floor (\`${pooled.aa.floor}\`) against a second build of itself: its ratio is 1 in truth, and its interval shows how finely the machine could resolve a ratio in these runs.`,
    '',
    '| function | ÷ floor (95% interval) | verdict | ÷ house floor (95% interval) | verdict |',
    '|---|---|---|---|---|',
    ...pooled.rows.map(
      (row) =>
        `| ${row.name} | ${intervalCell(row.floor)} | ${VERDICT_CELLS[row.floor.verdict]} | ${intervalCell(row.house)} | ${VERDICT_CELLS[row.house.verdict]} |`,
    ),
    `| A/A: ${pooled.aa.name}'s floor ÷ itself | ${intervalCell(pooled.aa.interval)} | — | — | — |`,
  ].join('\n');
}
