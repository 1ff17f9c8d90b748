import { spawn } from 'node:child_process';
import path from 'node:path';
import { testEnv } from '#test/support/environment';

/** Runs `onetime` as a user would: the bin `npm ci` linked, as a child process. */

const ONETIME = path.resolve(__dirname, '../../../node_modules/.bin/onetime');

export interface CliResult {
  code: number | null;
  /** Bytes: revealed text must come back byte for byte. */
  stdout: Buffer;
  stderr: string;
}

export interface CliOptions {
  stdin?: string | Buffer;
  /** ONETIME_API_KEY; undefined: none. */
  apiKey?: string;
  env?: Record<string, string>;
  cwd?: string;
}

export function onetime(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ONETIME_API_URL: testEnv('baseUrl'), ...options.env };
  delete env.ONETIME_API_KEY;
  if (options.apiKey !== undefined) env.ONETIME_API_KEY = options.apiKey;
  const child = spawn(ONETIME, args, { env, cwd: options.cwd, stdio: 'pipe' });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
  });
}

export const LINK = /^https?:\/\/\S+\/[A-Za-z0-9_-]{22,}#[A-Za-z0-9_-]{43}$/;

/** The link `share` printed: one line, nothing else. */
export function linkFrom(result: CliResult): string {
  const text = result.stdout.toString();
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  expect(text).toMatch(/^\S+\n$/);
  const link = text.trim();
  expect(link).toMatch(LINK);
  return link;
}
