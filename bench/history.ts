import { execFileSync } from 'node:child_process';
import type { BenchResults } from './report';

/**
 * The runs a verdict rests on. One run can pass a budget that the next misses on the same code
 * (a shared machine's load comes and goes), so a budget passes only when it passes in each of
 * RUNS_JUDGED runs of the same code, spread over at least MIN_SPREAD_MINUTES: an hour, because two
 * runs an hour apart are what disagreed when one run decided. docs/performance.json keeps those
 * runs; each `npm run bench` adds its own and drops the oldest, or every earlier run when the code
 * has changed since.
 */

export const RUNS_JUDGED = 3;
export const MIN_SPREAD_MINUTES = 60;

/** What was measured: the last commit that changed the measured code, and whether its files differ from that commit. */
export interface CodeVersion {
  commit: string;
  uncommitted: boolean;
}

export interface BenchRun extends BenchResults {
  code: CodeVersion;
}

const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();

/**
 * What a run measures: the functions and their build, local mode, the bench itself and the test
 * support it drives local mode with, and the installed packages. A commit that changes only tests,
 * docs, pages or scripts measures the same code, so it keeps the runs already made.
 */
const MEASURED_PATHS = ['lambdas', 'lib', 'local', 'bench', 'test/support', 'package.json', 'package-lock.json', 'tsconfig.json'];

export function codeVersion(): CodeVersion {
  const measured = ['--', ...MEASURED_PATHS];
  return {
    commit: git('log', '-1', '--format=%H', ...measured),
    uncommitted: git('status', '--porcelain', '--untracked-files=no', ...measured) !== '',
  };
}

/** Earlier runs worth judging with `run`: of the same committed code, the latest RUNS_JUDGED in all. */
export function withRun(stored: { runs?: BenchRun[] } | undefined, run: BenchRun): BenchRun[] {
  const comparable = (earlier: BenchRun): boolean => !run.code.uncommitted && !earlier.code.uncommitted && earlier.code.commit === run.code.commit;
  return [...(stored?.runs ?? []).filter(comparable), run].slice(-RUNS_JUDGED);
}

/** Minutes from the first run's start to the last's. */
export const spreadMinutes = (runs: readonly BenchRun[]): number =>
  runs.length < 2 ? 0 : (Date.parse(runs.at(-1)?.startedAt ?? '') - Date.parse(runs[0]?.startedAt ?? '')) / 60_000;

/** Whether the runs are enough to pass a budget on: RUNS_JUDGED of them, spread far enough. */
export const enoughRuns = (runs: readonly BenchRun[]): boolean => runs.length >= RUNS_JUDGED && spreadMinutes(runs) >= MIN_SPREAD_MINUTES;

/** A budget's verdict over the runs: each run's pass, judged only once there are enough runs. */
export function verdictOver(runs: readonly BenchRun[], passes: readonly boolean[]): 'pass' | 'miss' | 'pending' {
  if (passes.some((pass) => !pass)) return 'miss';
  return enoughRuns(runs) ? 'pass' : 'pending';
}
