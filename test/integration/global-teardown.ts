import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { GlobalConfig } from 'jest';
import type { RunningDynamoDb } from '#local/dynamodb-local';
import { SDK_CALL_LOG_ENV } from '#local/sdk-calls';
import { synthesize } from '../cdk/support/synth';
import type { LocalServer } from '../support/local-server';
import { leastPrivilegeFindings, readRecordedCalls } from './support/least-privilege';

/**
 * Only a run of every integration test exercises every grant: one file, or a name pattern, runs a
 * part of them.
 */
const isWholeRun = (config: GlobalConfig): boolean =>
  !config.testPathPatterns.isSet() &&
  !config.testNamePattern &&
  !config.onlyChanged &&
  !config.onlyFailures &&
  !config.findRelatedTests &&
  !config.lastCommit &&
  !config.changedSince &&
  !config.watch &&
  !config.watchAll;

/**
 * Stops what global-setup started, then (after a whole run) checks each function's role against
 * what it really sent (support/least-privilege.ts). Throwing here fails the run.
 */
export default async function globalTeardown(config: GlobalConfig): Promise<void> {
  const started = globalThis as unknown as { __localServer?: LocalServer; __dynamoDb?: RunningDynamoDb };
  await started.__localServer?.stop();
  await started.__dynamoDb?.stop();
  if (started.__localServer) keepOutput(started.__localServer.output());

  const directory = process.env[SDK_CALL_LOG_ENV];
  if (!directory) return;
  try {
    if (!isWholeRun(config)) return;
    const findings = await leastPrivilegeFindings(readRecordedCalls(directory), synthesize());
    if (findings.length > 0) {
      throw new Error(`Least privilege: the roles and what the functions sent differ:\n- ${findings.join('\n- ')}`);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The shared server's output, kept after the run (its own file goes with it) so that a failed
 * test's server side can be read: stream and queue retries, failed deletions, 503s. It holds no
 * id, key or data, as every log line of the functions and local mode. Ignored by git (*.log).
 */
export const KEPT_OUTPUT_FILE = path.resolve(__dirname, '../../.test-output/integration-local-mode.log');

function keepOutput(output: string): void {
  mkdirSync(path.dirname(KEPT_OUTPUT_FILE), { recursive: true });
  writeFileSync(KEPT_OUTPUT_FILE, output);
}
