import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';

/** A server script run from TypeScript as a child process: local mode (`local/main.ts`, what `npm start` runs) or a bench helper. */
export interface LocalServer {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

const ROOT = path.resolve(__dirname, '../..');
/** A busy machine can take over a minute to bring up a JVM for DynamoDB Local (it is given 120 s). */
const START_TIMEOUT_MS = 150_000;
/**
 * tsx as a loader of this node process, not its CLI: the CLI is a process of its own above the
 * server's, whose signal relay SIGKILLs the server when it is slow to confirm a SIGTERM
 * (docs/decisions/local-mode-process-tree.md).
 */
export const TSX_LOADER = ['--import', 'tsx'];
/**
 * As `npm start` runs local mode: Middy ships ESM only, exported under the `import` condition,
 * which tsx's CommonJS output otherwise cannot resolve (Node 24 then loads it with require(esm)).
 */
export const LOCAL_MODE_NODE_ARGS = ['--conditions=import', ...TSX_LOADER];

export const startLocalServer = (env: Record<string, string>): Promise<LocalServer> => startTsxServer('local/main.ts', /API ready at (\S+)/, env);

/** How often the output file is read while waiting for the ready line. */
const READY_POLL_MS = 50;

/**
 * Runs `entry` (relative to the repository) and waits for a line matching `ready`, whose first
 * group is its base URL. Its stdout and stderr go to a file, not a pipe: Node writes to a pipe
 * synchronously, so a server logging a line per request (as the functions do) would wait on
 * this process's event loop, which the bench keeps busy with its own load: through a pipe, local
 * mode's GET /health p50 measured 25 ms against 4 ms with the same server writing to a file.
 */
export async function startTsxServer(
  entry: string,
  ready: RegExp,
  env: Record<string, string>,
  nodeArgs: readonly string[] = LOCAL_MODE_NODE_ARGS,
): Promise<LocalServer> {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'local-server-'));
  const outputFile = path.join(outputDir, 'output.log');
  const fd = fs.openSync(outputFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  // Kept once the server has stopped, when its file is gone.
  let finalOutput: string | undefined;
  const output = (): string => finalOutput ?? fs.readFileSync(outputFile, 'utf8');
  const exited = once(child, 'exit');
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const deadline = Date.now() + START_TIMEOUT_MS;
    const poll = setInterval(() => {
      const url = ready.exec(output())?.[1];
      if (url) {
        clearInterval(poll);
        resolve(url);
      } else if (child.exitCode !== null || child.signalCode !== null) {
        clearInterval(poll);
        reject(new Error(`${entry} exited with ${child.exitCode ?? child.signalCode}:\n${output()}`));
      } else if (Date.now() > deadline) {
        clearInterval(poll);
        reject(new Error(`${entry} did not start:\n${output()}`));
      }
    }, READY_POLL_MS);
  }).catch(async (error: unknown) => {
    // A server that never got ready (a test of bad settings expects that): its error carries the
    // output, so the file goes with the process.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(outputDir, { recursive: true, force: true });
    throw error;
  });
  return {
    baseUrl,
    child,
    output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      finalOutput = output();
      fs.rmSync(outputDir, { recursive: true, force: true });
      return code;
    },
  };
}
