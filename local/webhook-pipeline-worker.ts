import { parentPort, workerData } from 'node:worker_threads';
import { startWebhookPipeline } from './webhook-pipeline';
import { STOP_PIPELINE, type PipelineMessage, type PipelineWorkerData } from './webhook-pipeline-thread';

/** The webhook pipeline's thread (see webhook-pipeline-thread.ts): starts it, and stops it when told to. */

const port = parentPort;
if (!port) throw new Error('webhook-pipeline-worker runs as a worker thread only');
const post = (message: PipelineMessage): void => port.postMessage(message);
const { options } = workerData as PipelineWorkerData;

startWebhookPipeline({ ...options, log: (line) => console.log(line) }).then(
  (pipeline) => {
    port.on('message', (message: unknown) => {
      if (message !== STOP_PIPELINE) return;
      void pipeline.stop().finally(() => {
        post({ type: 'stopped' });
        port.close();
      });
    });
    post({ type: 'ready', sqsEndpoint: pipeline.sqsEndpoint, queueUrl: pipeline.queueUrl, deadLetterQueueUrl: pipeline.deadLetterQueueUrl });
  },
  (error: unknown) => post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
