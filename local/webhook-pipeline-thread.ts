import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LocalWebhookPipeline, WebhookPipelineOptions } from './webhook-pipeline';

/**
 * Runs the webhook pipeline in a worker thread of its own. On AWS the fan-out and the delivery
 * run in functions of their own; here, too, reading the stream (images of up to 400 KB each) and
 * running those handlers must not hold up the API's event loop.
 */

export type PipelineWorkerData = { entry: string; options: Omit<WebhookPipelineOptions, 'log'> };

export type PipelineMessage =
  | { type: 'ready'; sqsEndpoint: string; queueUrl: string; deadLetterQueueUrl: string }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

export const STOP_PIPELINE = 'stop';

const BOOT = path.join(__dirname, 'worker-boot.mjs');
const WORKER_ENTRY = path.join(__dirname, 'webhook-pipeline-worker.ts');
/** A pipeline that has not stopped by then is cut off: stopping local mode must not hang. */
const STOP_TIMEOUT_MS = 10_000;

export function startWebhookPipelineThread(options: Omit<WebhookPipelineOptions, 'log'>): Promise<LocalWebhookPipeline> {
  // The worker starts with a copy of this environment: the endpoint and credentials set so far.
  const workerData: PipelineWorkerData = { entry: pathToFileURL(WORKER_ENTRY).href, options };
  const worker = new Worker(BOOT, { workerData });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    const stopped = new Promise<void>((resolve) =>
      worker.on('message', (message: PipelineMessage) => {
        if (message.type === 'stopped') resolve();
      }),
    );
    worker.postMessage(STOP_PIPELINE);
    const timer = new Promise<void>((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref());
    await Promise.race([stopped, exited, timer]);
    await worker.terminate();
  };

  return new Promise((resolve, reject) => {
    let started = false;
    worker.on('error', (error) => {
      // Once started, a failure in the thread is reported the way the pipeline reports its own.
      if (started) console.error(`webhook pipeline thread failed: ${error.message}`);
      else reject(error);
    });
    worker.once('exit', (code) => {
      if (!started) reject(new Error(`the webhook pipeline's thread exited with ${code} while starting`));
    });
    worker.once('message', (message: PipelineMessage) => {
      if (message.type === 'ready') {
        started = true;
        const { sqsEndpoint, queueUrl, deadLetterQueueUrl } = message;
        resolve({ sqsEndpoint, queueUrl, deadLetterQueueUrl, stop });
      } else {
        reject(new Error(message.type === 'failed' ? message.message : 'the webhook pipeline stopped while starting'));
        void worker.terminate();
      }
    });
  });
}
