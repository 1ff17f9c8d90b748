import * as path from 'node:path';
import { forkService } from './child-service';
import { environmentBeforeScopes } from './invocation-scope';
import type { LocalWebhookPipeline, WebhookPipelineOptions } from './webhook-pipeline';

/**
 * Runs the webhook pipeline in a process of its own, as the stack runs the fan-out and delivery
 * in functions of their own: reading the stream, fanning out and delivering never hold up the
 * API's requests in local mode's event loop.
 */

export type PipelineProcessOptions = Omit<WebhookPipelineOptions, 'log'>;

const ENTRY = path.join(__dirname, 'webhook-pipeline-entry.ts');

export async function startWebhookPipelineProcess(options: PipelineProcessOptions): Promise<LocalWebhookPipeline> {
  // The same flags as this process (tsx as its loader), so the entry runs from TypeScript as local mode does.
  const { ready, stop } = await forkService<Omit<LocalWebhookPipeline, 'stop'>>(
    ENTRY,
    options,
    { execArgv: process.execArgv, env: environmentBeforeScopes(process.env) },
    { name: "the webhook pipeline's process", lost: 'webhooks are no longer delivered' },
  );
  return { ...ready, stop };
}
