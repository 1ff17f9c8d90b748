import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { build } from 'esbuild';
import { REPORT_FD } from './protocol';

/** The child-process runner, as plain JavaScript that `node` runs without a loader. */
export async function buildRunner(outdir: string): Promise<string> {
  const outfile = path.join(outdir, 'runner.mjs');
  const target = `node${process.versions.node.split('.')[0]}`;
  await build({
    entryPoints: [path.join(__dirname, 'runner.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target,
    logLevel: 'silent',
  });
  return outfile;
}

/** A sample that takes this long has hung, not started slowly. */
const SAMPLE_TIMEOUT_MS = 30_000;

/** A sample can fail for the machine's sake (DynamoDB Local slow beside a test run): taken again, from a fresh request, up to this many attempts. */
export const SAMPLE_ATTEMPTS = 3;

/** `take`, attempted up to SAMPLE_ATTEMPTS times; `onRetry` hears why each failed attempt but the last failed. */
export async function withRetries<T>(take: () => Promise<T>, onRetry: (reason: string) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await take();
    } catch (error) {
      if (attempt >= SAMPLE_ATTEMPTS) throw error;
      onRetry(error instanceof Error ? error.message : String(error));
    }
  }
}

/**
 * One cold start, its CPU ms: a fresh `node` running the runner on one bundle and one event, in exactly `env`:
 * nothing of the bench's own (such as NODE_OPTIONS or tsx's loader) leaks into it. Rejects if the child fails or reports nothing.
 */
export function runSample(runner: string, bundle: string, event: unknown, env: Readonly<Record<string, string>>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runner, bundle, JSON.stringify(event)], {
      env: { ...env },
      // The handler's own logs go to stdout, read and dropped so that the pipe never fills.
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const { stdout, stderr: errors } = child;
    const reports = child.stdio[REPORT_FD];
    if (!stdout || !errors || !reports) throw new Error('the child process has no pipes');
    let reported = '';
    let stderr = '';
    reports.on('data', (chunk: Buffer) => (reported += chunk.toString()));
    stdout.resume();
    errors.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), SAMPLE_TIMEOUT_MS);

    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const line = reported.split('\n')[0];
      if (code !== 0 || !line) {
        reject(new Error(`cold-start sample of ${bundle} failed (exit ${code ?? signal}): ${stderr.trim() || 'no report'}`));
        return;
      }
      resolve(Number(line));
    });
  });
}
