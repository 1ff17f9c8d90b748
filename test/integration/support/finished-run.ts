import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** How a command run to its end ended, and all it printed. */
export interface FinishedRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Collects a spawned command's output until it closes: what the files that run a script of ours (dlq, smoke) read. */
export function finishedRun(child: ChildProcessByStdio<null, Readable, Readable>): Promise<FinishedRun> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
