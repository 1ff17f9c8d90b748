import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_FILE_NAME, esbuildOptionsFor } from '../../lib/bundling';

const REPO_ROOT = path.resolve(__dirname, '../..');
const BASELINE_ENTRY = path.join(__dirname, 'baseline.ts');
const RUNNER_ENTRY = path.join(__dirname, 'runner.ts');

export interface BuiltBundle {
  file: string;
  kb: number;
}

const kilobytes = (file: string): number => Math.round((fs.statSync(file).size / 1024) * 10) / 10;

/**
 * A function's bundle exactly as the stack builds it (esbuildOptionsFor), so that the bench times
 * the artefact Lambda runs. `entry` is relative to the repository root or absolute.
 */
export async function buildFunctionBundle(entry: string, outdir: string): Promise<BuiltBundle> {
  await build({ ...esbuildOptionsFor(path.resolve(REPO_ROOT, entry), outdir), logLevel: 'silent' });
  const file = path.join(outdir, BUNDLE_FILE_NAME);
  return { file, kb: kilobytes(file) };
}

/** The baseline goes through the same build as the functions: only its entry differs. */
export const buildBaselineBundle = (outdir: string): Promise<BuiltBundle> => buildFunctionBundle(BASELINE_ENTRY, outdir);

/** The child-process runner, as plain JavaScript that `node` runs without a loader. */
export async function buildRunner(outdir: string): Promise<string> {
  const outfile = path.join(outdir, 'runner.mjs');
  await build({
    entryPoints: [RUNNER_ENTRY],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    logLevel: 'silent',
  });
  return outfile;
}
