import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

/** A server script run by tsx as a child process: local mode (`local/main.ts`, what `npm start` runs) or a bench helper. */
export interface LocalServer {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
/** Local mode took 45 s to start (DynamoDB Local's JVM most of it) on this 2-core machine under other suites. */
const START_TIMEOUT_MS = 120_000;
/**
 * As package.json's scripts run tsx: Middy ships ESM only, exported under the `import` condition,
 * which tsx's CommonJS output otherwise cannot resolve (Node 24 then loads it with require(esm)).
 */
export const TSX_ARGS = ['--conditions=import'];

export const startLocalServer = (env: Record<string, string>): Promise<LocalServer> =>
  startTsxServer('local/main.ts', /API ready at (\S+)/, env);

/** Runs `entry` (relative to the repository) and waits for a line matching `ready`, whose first group is its base URL. */
export async function startTsxServer(entry: string, ready: RegExp, env: Record<string, string>): Promise<LocalServer> {
  const child = spawn(TSX, [...TSX_ARGS, entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(child, 'exit');
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = ready.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}:\n${output}`));
    });
  });
  return {
    baseUrl,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}
