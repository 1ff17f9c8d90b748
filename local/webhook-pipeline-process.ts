import { fork } from 'node:child_process';
import * as path from 'node:path';
import { environmentBeforeScopes } from './invocation-scope';
import type { LocalWebhookPipeline, WebhookPipelineOptions } from './webhook-pipeline';

/**
 * Runs the webhook pipeline in a process of its own, as the stack runs the fan-out and delivery
 * in functions of their own: reading the stream, fanning out and delivering never hold up the
 * API's requests in local mode's event loop.
 */

export type PipelineProcessOptions = Omit<WebhookPipelineOptions, 'log'>;

/** What the pipeline's process reports once, when it has started or failed to. */
export type PipelineProcessReport = { outcome: 'ready'; queues: Omit<LocalWebhookPipeline, 'stop'> } | { outcome: 'failed'; message: string };

export const STOP_PIPELINE = 'stop';

const ENTRY = path.join(__dirname, 'webhook-pipeline-entry.ts');

export function startWebhookPipelineProcess(options: PipelineProcessOptions): Promise<LocalWebhookPipeline> {
  // The same flags as this process (tsx as its loader), so the entry runs from TypeScript as local mode does.
  const child = fork(ENTRY, [JSON.stringify(options)], { execArgv: process.execArgv, env: environmentBeforeScopes(process.env) });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready = false;
  let stopping = false;
  const stop = async (): Promise<void> => {
    stopping = true;
    // It may be gone already (killed on its own): a closed channel is no error here.
    if (child.connected) child.send(STOP_PIPELINE, () => undefined);
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const ended = `the webhook pipeline's process ended (${signal ?? code})`;
      if (!ready) reject(new Error(`${ended} before it was ready`));
      // The API goes on serving without it: say loudly what stopped.
      else if (!stopping) console.error(`${ended}: webhooks are no longer delivered; restart local mode`);
    });
    child.once('message', (report: PipelineProcessReport) => {
      ready = report.outcome === 'ready';
      if (report.outcome === 'ready') resolve({ ...report.queues, stop });
      else reject(new Error(report.message));
    });
  });
}
