import os from 'node:os';
import { parseArgs } from 'node:util';
import { startBenchEnvironment } from './environment';

/**
 * `npm run bench`: starts local mode on its own DynamoDB Local, measures, and writes
 * docs/performance.md and docs/performance.json; about 4 minutes on 2 cores.
 * `npm run bench -- --only sign-in` or `--only cold-start`: that section alone, printed.
 * The measuring code is imported only once the environment is set: the store builds its DynamoDB
 * client when it is first imported, from the endpoint in this process's environment, as a
 * handler's does.
 */
const SECTIONS = ['sign-in', 'cold-start'] as const;

function onlySection(): (typeof SECTIONS)[number] | undefined {
  const { only } = parseArgs({ options: { only: { type: 'string' } } }).values;
  if (only === undefined) return undefined;
  const section = SECTIONS.find((name) => name === only);
  if (!section) throw new Error(`--only takes one of: ${SECTIONS.join(', ')} (got ${only})`);
  return section;
}

async function main(): Promise<void> {
  const started = new Date();
  const loadAtStart = os.loadavg();
  const only = onlySection();
  const environment = await startBenchEnvironment();
  try {
    const { runBench, runColdStartBench, runSignInBench } = await import('./run');
    if (only === 'sign-in') await runSignInBench(environment);
    else if (only === 'cold-start') await runColdStartBench(environment);
    else await runBench(environment, started, loadAtStart);
  } finally {
    await environment.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
