import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LAMBDA_RUNTIME } from '#lib/bundling';
import { buildBundle, buildRunner, type BuiltBundle } from './cold-start/bundles';
import { SAMPLE_FUNCTION_NAME } from './cold-start/protocol';
import type { ColdStartAaRow, ColdStartResult } from './cold-start/result';
import { runSample, withRetries, type ColdStartSample } from './cold-start/sample';
import { startColdStartServices, type ColdStartServices } from './cold-start/services';
import { coldStartTargets, type ColdStartFloor, type ColdStartTarget } from './cold-start/targets';
import type { BenchEnvironment } from './environment';
import { hundredths, judge, median, ratio, repeated, type RepeatedMeasurement } from './stats';
import { rotated } from './turns';

export type { ColdStartAaRow, ColdStartResult, ColdStartRow } from './cold-start/result';
export { renderColdStarts } from './cold-start/render';

/**
 * Cold init per function: a fresh `node` imports the function's bundle, built as the stack builds
 * it, and handles one request; the same is timed for its floor, a bundle that builds the same SDK
 * clients and makes the same calls (bench/cold-start/targets.ts). Samples of the two
 * alternate, so that the noise of a shared machine falls on both alike. The budget judges the
 * child's CPU time, which other processes move far less than its elapsed time (shown beside it),
 * though one sample's still strays by 11–16% on this shared machine; so every sample is kept for
 * the report to pool over the runs, and an A/A row shows what the day's noise can resolve.
 */

export const COLD_START_BUDGET = 1.1;

/**
 * Per function and repetition. With 5, one repetition's ratio strayed by up to ±0.2 on a function
 * that loads next to nothing beyond its floor (keys-get, 0.98–1.27 at a load average of 5). A
 * sample is a process start of about 0.25 s, so 15 functions × 8 × 3 bundles take about 100 s.
 */
const SAMPLES_PER_REPETITION = 8;

/** The function whose floor the A/A row builds twice: a keyed route's, the floor most rows share in kind. */
const AA_FUNCTION = 'keys-get';

/**
 * What Lambda sets and the bench environment does not, as far as the SDK reads it on a first call
 * (user agent, recursion detection).
 */
const LAMBDA_LIKE_ENV = {
  AWS_EXECUTION_ENV: `AWS_Lambda_${LAMBDA_RUNTIME.name}`,
  AWS_LAMBDA_FUNCTION_NAME: SAMPLE_FUNCTION_NAME,
};

/** Everything a cold-start sample needs: the runner, the services and the environment of every sample. */
export interface ColdStartBench {
  runner: string;
  services: ColdStartServices;
  env: Readonly<Record<string, string>>;
  targets: ColdStartTarget[];
  /** A scratch directory for bundles, removed by stop(). */
  outRoot: string;
  /** Failed attempts that were taken again (cold-start/sample.ts, withRetries). */
  retried: number;
  stop: () => Promise<void>;
}

export async function startColdStartBench(env: BenchEnvironment): Promise<ColdStartBench> {
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
  const removeOutRoot = (): void => fs.rmSync(outRoot, { recursive: true, force: true });
  try {
    const services = await startColdStartServices();
    return {
      runner: await buildRunner(outRoot),
      services,
      env: { ...env.handlerEnv, ...services.env, ...LAMBDA_LIKE_ENV },
      targets: coldStartTargets(services),
      outRoot,
      retried: 0,
      stop: async () => {
        try {
          await services.stop();
        } finally {
          removeOutRoot();
        }
      },
    };
  } catch (error) {
    removeOutRoot();
    throw error;
  }
}

/** Counts a failed attempt and says why it failed; the reason names the bundle and the service's error, never the request. */
const retryNoted =
  (bench: ColdStartBench) =>
  (reason: string): void => {
    bench.retried += 1;
    console.error(`taken again: ${reason}`);
  };

/** One timed sample of `target`'s own bundle: a fresh fixture, the request (again from a fresh fixture if it fails), its effect checked. */
export async function sampleFunction(bench: ColdStartBench, target: ColdStartTarget, bundle: BuiltBundle): Promise<ColdStartSample> {
  const sample = await withRetries(async () => runSample(bench.runner, bundle.file, await target.nextEvent(), bench.env), retryNoted(bench));
  await target.confirm();
  return sample;
}

export const sampleFloor = (bench: ColdStartBench, floor: ColdStartFloor, bundle: BuiltBundle): Promise<ColdStartSample> =>
  withRetries(() => runSample(bench.runner, bundle.file, floor.event, bench.env), retryNoted(bench));

interface Row {
  target: ColdStartTarget;
  bundle: BuiltBundle;
  floor: BuiltBundle;
  houseFloor: BuiltBundle;
  /** Per repetition, the samples of each side. */
  repetitions: { function: ColdStartSample[]; floor: ColdStartSample[]; houseFloor: ColdStartSample[] }[];
}

const kept = (samples: readonly ColdStartSample[]): number[] => samples.map((sample) => hundredths(sample.cpuMs));

/** Per repetition, the median of a figure of its samples, for the function and one of its floors, and their ratio. */
function compared(
  row: Row,
  figure: (sample: ColdStartSample) => number,
  floorSide: 'floor' | 'houseFloor' = 'floor',
): { functionMs: number[]; floorMs: number[]; ratios: number[] } {
  const functionMs = row.repetitions.map((samples) => median(samples.function.map(figure)));
  const floorMs = row.repetitions.map((samples) => median(samples[floorSide].map(figure)));
  return { functionMs, floorMs, ratios: functionMs.map((ms, index) => ratio(ms, floorMs[index] as number)) };
}

/**
 * SAMPLES_PER_REPETITION rounds of one draw of each side, back to back: a round's samples are the
 * pairs the pooled verdict divides. Which side goes first rotates, from round to round and from
 * `offset`, keeping any effect of order off one side.
 */
async function inRotation(offset: number, draws: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (let round = 0; round < SAMPLES_PER_REPETITION; round++) {
    for (const draw of rotated(draws, round + offset)) await draw();
  }
}

export async function prepareColdStarts(env: BenchEnvironment): Promise<RepeatedMeasurement<ColdStartResult>> {
  const bench = await startColdStartBench(env);
  try {
    const floorEntries = [...new Set(bench.targets.flatMap((target) => [target.floor.entry, target.houseFloor.entry]))];
    const [bundles, floors] = await Promise.all([
      Promise.all(bench.targets.map((target, index) => buildBundle(target.entry, path.join(bench.outRoot, `function-${index}`)))),
      Promise.all(floorEntries.map((entry, index) => buildBundle(entry, path.join(bench.outRoot, `floor-${index}`)))),
    ]);
    const floorOf = new Map(floorEntries.map((entry, index) => [entry, floors[index] as BuiltBundle]));
    const rows: Row[] = bench.targets.map((target, index) => ({
      target,
      bundle: bundles[index] as BuiltBundle,
      floor: floorOf.get(target.floor.entry) as BuiltBundle,
      houseFloor: floorOf.get(target.houseFloor.entry) as BuiltBundle,
      repetitions: [],
    }));
    const aaTarget = bench.targets.find((target) => target.name === AA_FUNCTION);
    if (!aaTarget) throw new Error(`no cold-start target ${AA_FUNCTION} for the A/A row`);
    const aaBundles = [
      floorOf.get(aaTarget.floor.entry) as BuiltBundle,
      await buildBundle(aaTarget.floor.entry, path.join(bench.outRoot, 'floor-again')),
    ];
    const aa: ColdStartAaRow = {
      name: AA_FUNCTION,
      floor: path.relative(path.resolve(__dirname, '..'), aaTarget.floor.entry),
      samples: { a: [], b: [] },
    };
    // Untimed: a bundle's first start also reads it into the page cache.
    for (const row of rows) {
      await sampleFunction(bench, row.target, row.bundle);
      await sampleFloor(bench, row.target.floor, row.floor);
      await sampleFloor(bench, row.target.houseFloor, row.houseFloor);
    }
    for (const bundle of aaBundles) await sampleFloor(bench, aaTarget.floor, bundle);

    return {
      measureOnce: async () => {
        for (const row of rows) {
          const samples = { function: [] as ColdStartSample[], floor: [] as ColdStartSample[], houseFloor: [] as ColdStartSample[] };
          await inRotation(row.repetitions.length, [
            async () => samples.function.push(await sampleFunction(bench, row.target, row.bundle)),
            async () => samples.floor.push(await sampleFloor(bench, row.target.floor, row.floor)),
            async () => samples.houseFloor.push(await sampleFloor(bench, row.target.houseFloor, row.houseFloor)),
          ]);
          row.repetitions.push(samples);
        }
        await inRotation(
          0,
          aaBundles.map((bundle, side) => async () => {
            const samples = side === 0 ? aa.samples.a : aa.samples.b;
            samples.push(hundredths((await sampleFloor(bench, aaTarget.floor, bundle)).cpuMs));
          }),
        );
      },
      result: () => ({
        repetitions: rows[0]?.repetitions.length ?? 0,
        samplesPerRepetition: SAMPLES_PER_REPETITION,
        retriedSamples: bench.retried,
        rows: rows.map((row) => {
          const cpu = compared(row, (sample) => sample.cpuMs);
          const house = compared(row, (sample) => sample.cpuMs, 'houseFloor');
          const elapsed = compared(row, (sample) => sample.totalMs);
          return {
            name: row.target.name,
            bundleKb: row.bundle.kb,
            floor: { entry: path.relative(path.resolve(__dirname, '..'), row.target.floor.entry), kb: row.floor.kb },
            cpu: { functionMs: repeated(cpu.functionMs), floorMs: repeated(cpu.floorMs), ratio: judge(cpu.ratios, COLD_START_BUDGET) },
            elapsed: { functionMs: repeated(elapsed.functionMs), floorMs: repeated(elapsed.floorMs), ratio: repeated(elapsed.ratios) },
            house: {
              entry: path.relative(path.resolve(__dirname, '..'), row.target.houseFloor.entry),
              kb: row.houseFloor.kb,
              floorMs: repeated(house.floorMs),
              ratio: judge(house.ratios, COLD_START_BUDGET),
            },
            samples: {
              function: kept(row.repetitions.flatMap((samples) => samples.function)),
              floor: kept(row.repetitions.flatMap((samples) => samples.floor)),
              houseFloor: kept(row.repetitions.flatMap((samples) => samples.houseFloor)),
            },
          };
        }),
        aa: { ...aa, samples: { a: [...aa.samples.a], b: [...aa.samples.b] } },
      }),
      stop: bench.stop,
    };
  } catch (error) {
    await bench.stop();
    throw error;
  }
}
