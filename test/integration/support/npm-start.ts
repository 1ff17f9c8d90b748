import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { ENV } from '#lambdas/definitions/env';

/**
 * `npm start` as typed in a terminal: the real npm, in a process group of its own as a shell
 * makes each job (the group Ctrl-C signals), from `cwd`, with `env` added to this process's.
 */
export interface NpmStart {
  /** npm's own process. */
  npm: ChildProcess;
  output: () => string;
  /** npm's exit code once it has ended (null when a signal ended it). */
  exited: Promise<number | null>;
  /** The base URL from `API ready at …`; rejects if npm ends first. */
  ready: Promise<string>;
}

const ROOT = path.resolve(__dirname, '../../..');
const READY = /API ready at (\S+)/;

export function npmStart(env: Record<string, string>, cwd = ROOT): NpmStart {
  // Unset, as for a user: local mode starts its own DynamoDB Local.
  const { [ENV.dynamodbEndpoint]: _unset, ...inherited } = process.env;
  const npm = spawn('npm', ['--prefix', ROOT, 'start'], {
    cwd,
    detached: true,
    env: { ...inherited, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(npm, 'exit').then(([code]) => code as number | null);
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = READY.exec(output)?.[1];
      if (url) resolve(url);
    };
    npm.stdout?.on('data', onData);
    npm.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  // Awaited by whoever needs it: a start that fails is reported there, not as an unhandled rejection.
  ready.catch(() => undefined);
  return { npm, output: () => output, exited, ready };
}
