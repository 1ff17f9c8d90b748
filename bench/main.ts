import { execFileSync } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBenchEnvironment } from './environment';

/**
 * `npm run bench`: one run of about two minutes, written to docs/performance.md (raw figures in
 * .bench/, ignored by git); exits non-zero when a budget misses. What measures is imported once the
 * environment is set: the functions' clients read their endpoints when first imported.
 */

const ROOT = path.resolve(__dirname, '..');
/** What one run may take: its cold-start rounds stop once another would not fit. */
const RUN_MS = 170_000;

/** Handler logs go to stdout as on Lambda; written to /dev/null here, so that the bench's own output (stderr) stays readable. */
function quietStdout(): void {
  const devNull = openSync('/dev/null', 'w');
  process.stdout.write = (chunk: string | Uint8Array) => {
    writeSync(devNull, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return true;
  };
}

async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  console.error(`${name} ...`);
  const result = await work();
  console.error(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

async function main(): Promise<void> {
  const started = new Date();
  const environment = await step('DynamoDB Local and the tables', startBenchEnvironment);
  try {
    const [{ dynamo }, { sqs }, { measureDynamoDbUsage }, { watchCalls }, { benchFunctions }, warm, cold, cost, report] = await Promise.all([
      import('#lambdas/store/dynamo'),
      import('#lambdas/webhooks/queue/sqs'),
      import('#local/dynamodb-usage'),
      import('./calls'),
      import('./functions'),
      import('./warm'),
      import('./cold-start'),
      import('./cost'),
      import('./report'),
    ]);
    watchCalls(dynamo);
    watchCalls(sqs);
    measureDynamoDbUsage(dynamo);
    quietStdout();
    const functions = benchFunctions(environment);
    const warmRows = await step('warm requests', () => warm.measureWarm(functions));
    const large = await step('5 MiB secrets', () => warm.measureLargePayloads());
    const floorEventOf = (name: string): unknown => warmRows.find((row) => row.name === name)?.floorEvent;
    const coldStarts = await step('cold init', () =>
      cold.measureColdStarts({ functions, floorEventOf, env: environment.env, deadline: started.getTime() + RUN_MS }),
    );
    const results = {
      startedAt: started.toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      durationS: Math.round((Date.now() - started.getTime()) / 1000),
      commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
      machine: `${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)} at the end`,
      warm: warmRows,
      large,
      coldStarts,
      costs: cost.costsOf(warmRows, large),
    };
    writeFileSync(path.join(ROOT, 'docs/performance.md'), report.renderReport(results));
    mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
    writeFileSync(path.join(ROOT, '.bench/last-run.json'), `${JSON.stringify(results, null, 1)}\n`);
    const missed = report.verdicts(results).filter((verdict) => verdict === 'miss').length;
    console.error(`wrote docs/performance.md in ${results.durationS} s: ${missed === 0 ? 'every budget passes' : `${missed} budget(s) missed`}`);
    process.exitCode = missed === 0 ? 0 : 1;
  } finally {
    await environment.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
