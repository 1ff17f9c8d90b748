import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LAMBDA_RUNTIME } from '../lib/bundling';
import { buildBaselineBundle, buildFunctionBundle, buildRunner, type BuiltBundle } from './cold-start/bundles';
import type { ColdStartResult, ColdStartRow, ColdStartTimes } from './cold-start/result';
import { SAMPLE_FUNCTION_NAME } from './cold-start/protocol';
import { runSample, type ColdStartSample } from './cold-start/sample';
import { startColdStartServices } from './cold-start/services';
import { coldStartTargets, firstCallTarget, type ColdStartTarget } from './cold-start/targets';
import type { BenchEnvironment } from './environment';
import { hundredths, median, ratio, verdict } from './stats';

export type { ColdStartResult, ColdStartRow, ColdStartTimes, HandlerColdStart } from './cold-start/result';
export { renderColdStarts } from './cold-start/render';

/**
 * Cold init per function (issue 4): a fresh `node` imports the function's bundle, built as the
 * stack builds it, and handles one request; the same is timed for a baseline bundle that only
 * constructs a DynamoDB document client. Samples of the two alternate, so that the noise of a
 * shared machine falls on both alike, and each function is judged by its median against the
 * median of the baseline samples taken alongside it.
 */

export const COLD_START_BUDGET = 1.15;

/**
 * Per row. A sample is a process start of about 0.1 s (0.2 s on a busy machine), so 11 rows ×
 * (15 + 1 warm-up) × 2 processes take 40–70 s. Ratios of medians of 11 pairs were seen to wander
 * by about ±0.08 from run to run on this 2-core machine; 15 pairs narrow that within the time.
 */
const DEFAULT_RUNS = 15;

/**
 * What Lambda sets and the bench environment does not, as far as the SDK reads it on a first call
 * (user agent, recursion detection). Lambda's Node has no deprecation warning from the SDK; an older
 * local Node would print one in every sample.
 */
const LAMBDA_LIKE_ENV = {
  AWS_EXECUTION_ENV: `AWS_Lambda_${LAMBDA_RUNTIME.name}`,
  AWS_LAMBDA_FUNCTION_NAME: SAMPLE_FUNCTION_NAME,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

function timesOf(samples: readonly ColdStartSample[]): ColdStartTimes {
  const totals = samples.map((sample) => sample.totalMs);
  return {
    medianMs: median(totals),
    minMs: Math.min(...totals),
    maxMs: Math.max(...totals),
    importedAtMs: hundredths(median(samples.map((sample) => sample.importedAtMs))),
    answeredAtMs: hundredths(median(samples.map((sample) => sample.answeredAtMs))),
  };
}

interface Bench {
  runner: string;
  baseline: BuiltBundle;
  env: Readonly<Record<string, string>>;
  runs: number;
}

async function measureTarget(target: ColdStartTarget, bundle: BuiltBundle, bench: Bench): Promise<ColdStartRow> {
  const sample = (file: string, event: unknown): Promise<ColdStartSample> => runSample(bench.runner, file, event, bench.env);
  // Untimed: a bundle's first start also reads it into the page cache.
  const warmUp = await target.nextEvent();
  await sample(bundle.file, warmUp);
  await target.confirm();
  await sample(bench.baseline.file, warmUp);

  const measured: ColdStartSample[] = [];
  const baseline: ColdStartSample[] = [];
  for (let run = 0; run < bench.runs; run++) {
    // Both processes of a pair get the same event, so they read and parse the same argv.
    const event = await target.nextEvent();
    // Alternating which goes first keeps any effect of order off one side.
    if (run % 2 === 0) {
      baseline.push(await sample(bench.baseline.file, event));
      measured.push(await sample(bundle.file, event));
    } else {
      measured.push(await sample(bundle.file, event));
      baseline.push(await sample(bench.baseline.file, event));
    }
    await target.confirm();
  }
  const baselineTimes = timesOf(baseline);
  const measuredTimes = timesOf(measured);
  return {
    handler: target.name,
    bundleKb: bundle.kb,
    baseline: baselineTimes,
    measured: measuredTimes,
    ...verdict(measuredTimes.medianMs, baselineTimes.medianMs, COLD_START_BUDGET),
  };
}

export async function measureColdStarts(env: BenchEnvironment, options: { runs?: number } = {}): Promise<ColdStartResult> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
  try {
    const services = await startColdStartServices();
    try {
      const targets = [firstCallTarget(), ...coldStartTargets(services)];
      const [runner, baseline, bundles] = await Promise.all([
        buildRunner(outRoot),
        buildBaselineBundle(path.join(outRoot, 'baseline')),
        Promise.all(targets.map((target, index) => buildFunctionBundle(target.entry, path.join(outRoot, `bundle-${index}`)))),
      ]);
      const bench: Bench = { runner, baseline, env: { ...env.handlerEnv, ...services.env, ...LAMBDA_LIKE_ENV }, runs };
      const rows: ColdStartRow[] = [];
      for (const [index, target] of targets.entries()) {
        rows.push(await measureTarget(target, bundles[index] as BuiltBundle, bench));
      }
      const [firstCall, ...functions] = rows as [ColdStartRow, ...ColdStartRow[]];
      return {
        runs,
        budget: COLD_START_BUDGET,
        baselineBundleKb: baseline.kb,
        firstCall,
        handlers: functions.map((row) => ({ ...row, ratioToFirstCall: ratio(row.ratio, firstCall.ratio) })),
      };
    } finally {
      await services.stop();
    }
  } finally {
    fs.rmSync(outRoot, { recursive: true, force: true });
  }
}
