import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { esbuildOptionsFor, LAMBDA_RUNTIME } from '#lib/bundling';
import { SAMPLE_FUNCTION_NAME } from './cold-start/protocol';
import { buildRunner, runSample, withRetries } from './cold-start/sample';
import { HOUSE_FLOORS, type BenchFunction } from './functions';
import { hundredths, judge, median, pairedInterval, ratioOf, type Judged } from './stats';

/**
 * Cold init per function: a fresh `node` imports the function's bundle and handles one request,
 * against its house floor's bundle, pair by pair; the child's CPU time, which other processes move
 * far less than its elapsed time.
 */

export const COLD_START_BUDGET = 1.1;
/** Pairs per function, in rounds over all functions: more than the least while a round still fits before the deadline. */
const PAIRS = { least: 2, most: 6 } as const;

/** What Lambda sets and the bench does not, as far as the SDK reads it on a first call (user agent, recursion detection). */
const LAMBDA_LIKE_ENV = { AWS_EXECUTION_ENV: `AWS_Lambda_${LAMBDA_RUNTIME.name}`, AWS_LAMBDA_FUNCTION_NAME: SAMPLE_FUNCTION_NAME };

interface BuiltBundle {
  file: string;
  kb: number;
}

/** `entry` (relative to the repository root) built exactly as the stack builds a function, so that the bench times the artefact Lambda runs. */
async function buildBundle(entry: string, outdir: string): Promise<BuiltBundle> {
  const options = esbuildOptionsFor(path.resolve(__dirname, '..', entry), outdir);
  if (!options.outfile) throw new Error(`the build of ${entry} names no outfile`);
  await build({ ...options, logLevel: 'silent' });
  return { file: options.outfile, kb: Math.round(fs.statSync(options.outfile).size / 102.4) / 10 };
}

export interface ColdStartRow {
  name: string;
  bundleKb: number;
  floorKb: number;
  functionMs: number;
  floorMs: number;
  /** Function ÷ house floor, CPU time, pair by pair. */
  ratio: Judged;
}

export interface ColdStartInputs {
  functions: readonly BenchFunction[];
  /** What each function's house floor is handed (functions.ts, floorEvent). */
  floorEventOf: (name: string) => unknown;
  env: Record<string, string>;
  /** Date.now() by which the samples should end. */
  deadline: number;
}

export async function measureColdStarts({ functions, floorEventOf, env, deadline }: ColdStartInputs): Promise<ColdStartRow[]> {
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cold-start-'));
  try {
    const [runner, floors, bundles] = await Promise.all([
      buildRunner(outRoot),
      Promise.all([HOUSE_FLOORS.route, HOUSE_FLOORS.pipeline].map((entry, index) => buildBundle(entry, path.join(outRoot, `floor-${index}`)))),
      Promise.all(functions.map((target) => buildBundle(target.entry, path.join(outRoot, target.name)))),
    ]);
    const sampleEnv = { ...env, ...LAMBDA_LIKE_ENV };
    const retried = (reason: string): void => console.error(`taken again: ${reason}`);
    const sides = functions.map((target, index) => {
      const [bundle, floor] = [bundles[index] as BuiltBundle, floors[target.kind === 'route' ? 0 : 1] as BuiltBundle];
      const event = floorEventOf(target.name);
      const ofFunction = (): Promise<number> =>
        withRetries(async () => {
          const cpuMs = await runSample(runner, bundle.file, await target.nextEvent(), sampleEnv);
          await target.confirm();
          return cpuMs;
        }, retried);
      const ofFloor = (): Promise<number> => withRetries(() => runSample(runner, floor.file, event, sampleEnv), retried);
      return { target, bundle, floor, ofFunction, ofFloor, functionMs: [] as number[], floorMs: [] as number[] };
    });
    // Untimed: a bundle's first start also reads it into the page cache (the floor's, once per kind).
    for (const [index, side] of sides.entries()) {
      await side.ofFunction();
      if (functions[index - 1]?.kind !== side.target.kind) await side.ofFloor();
    }
    for (let pair = 0, roundMs = 0; pair < PAIRS.most && (pair < PAIRS.least || Date.now() + roundMs < deadline); pair++) {
      const roundStarted = Date.now();
      for (const side of sides) {
        // Which goes first alternates, keeping any effect of order off one side.
        if (pair % 2 === 0) side.functionMs.push(await side.ofFunction());
        side.floorMs.push(await side.ofFloor());
        if (pair % 2 === 1) side.functionMs.push(await side.ofFunction());
      }
      roundMs = Date.now() - roundStarted;
    }
    return sides.map(({ target, bundle, floor, functionMs, floorMs }) => ({
      name: target.name,
      bundleKb: bundle.kb,
      floorKb: floor.kb,
      functionMs: hundredths(median(functionMs)),
      floorMs: hundredths(median(floorMs)),
      ratio: judge(pairedInterval(functionMs, floorMs, ratioOf), COLD_START_BUDGET),
    }));
  } finally {
    fs.rmSync(outRoot, { recursive: true, force: true });
  }
}
