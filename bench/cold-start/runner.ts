import type { Context } from 'aws-lambda';
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { lambdaContext } from '#local/lambda-context';
import { REPORT_FD, SAMPLE_FUNCTION_NAME, failureOf } from './protocol';

/**
 * The child process of one cold-start sample: argv <bundle> <event JSON>. Imports the bundle, hands its
 * handler the event, reports on REPORT_FD once the response is in and exits; fails saying why otherwise.
 */

type Handler = (event: unknown, context: Context) => Promise<unknown>;

const TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  const [bundle, eventJson] = process.argv.slice(2);
  if (bundle === undefined || eventJson === undefined) throw new Error('usage: runner <bundle> <event JSON>');
  const event: unknown = JSON.parse(eventJson);

  const loaded = (await import(pathToFileURL(bundle).href)) as { handler?: unknown };
  if (typeof loaded.handler !== 'function') throw new Error(`${bundle} exports no handler`);
  const response = await (loaded.handler as Handler)(event, lambdaContext(SAMPLE_FUNCTION_NAME, 'cold-start-request', TIMEOUT_MS));
  const cpu = process.cpuUsage();

  const failure = failureOf(response);
  if (failure !== undefined) throw new Error(`the handler did not succeed: ${failure}`);
  writeSync(REPORT_FD, `${(cpu.user + cpu.system) / 1000}\n`);
  // The SDK keeps sockets open; a Lambda would be frozen here, a sample just ends.
  process.exit(0);
}

main().catch((error: unknown) => {
  // The message only: the event, which carries an API key, is never printed.
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
