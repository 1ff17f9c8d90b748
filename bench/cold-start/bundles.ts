import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { esbuildOptionsFor } from '#lib/bundling';

const REPO_ROOT = path.resolve(__dirname, '../..');
const RUNNER_ENTRY = path.join(__dirname, 'runner.ts');

export interface BuiltBundle {
  file: string;
  kb: number;
}

const kilobytes = (file: string): number => Math.round((fs.statSync(file).size / 1024) * 10) / 10;

/**
 * `entry` (relative to the repository root, or absolute) built exactly as the stack builds a
 * function (esbuildOptionsFor), so that the bench times the artefact Lambda runs.
 */
export async function buildBundle(entry: string, outdir: string): Promise<BuiltBundle> {
  const options = esbuildOptionsFor(path.resolve(REPO_ROOT, entry), outdir);
  if (!options.outfile) throw new Error(`the build of ${entry} names no outfile`);
  await build({ ...options, logLevel: 'silent' });
  return { file: options.outfile, kb: kilobytes(options.outfile) };
}

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
