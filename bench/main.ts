import os from 'node:os';
import { startBenchEnvironment } from './environment';

/**
 * `npm run bench`: starts local mode on its own DynamoDB Local, measures, and writes
 * docs/performance.md and docs/performance.json; about 4 minutes on 2 cores. The measuring code
 * is imported only once the environment is set: the store builds its DynamoDB client when it is
 * first imported, from the endpoint in this process's environment, as a handler's does.
 */
async function main(): Promise<void> {
  const started = new Date();
  const loadAtStart = os.loadavg();
  const environment = await startBenchEnvironment();
  try {
    const { runBench } = await import('./run');
    await runBench(environment, started, loadAtStart);
  } finally {
    await environment.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
