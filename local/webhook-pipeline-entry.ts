import { prepareInvocationScopes } from './invocation-scope';
import { STOP_PIPELINE, type PipelineProcessOptions, type PipelineProcessReport } from './webhook-pipeline-process';
import { startWebhookPipeline, type LocalWebhookPipeline } from './webhook-pipeline';

/**
 * The webhook pipeline's process (see webhook-pipeline-process.ts). It stops when local mode tells
 * it to, when local mode is gone, or on SIGTERM.
 */

const options = JSON.parse(process.argv[2] ?? '{}') as PipelineProcessOptions;
let pipeline: LocalWebhookPipeline | undefined;
let stopping = false;

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await pipeline?.stop();
  } finally {
    process.exit(0);
  }
}

/** Reports to local mode, then goes on with `then` once the report is sent. */
function report(message: PipelineProcessReport, then: () => void = () => undefined): void {
  if (process.send) process.send(message, then);
  else then();
}

process.on('message', (message) => {
  if (message === STOP_PIPELINE) void stop();
});
process.on('disconnect', () => void stop());
// Ctrl-C and a closed terminal signal the whole process group: local mode stops this process in its turn.
process.on('SIGINT', () => undefined);
process.on('SIGHUP', () => undefined);
process.on('SIGTERM', () => void stop());

prepareInvocationScopes();
startWebhookPipeline({ ...options, log: (line) => console.log(line) }).then(
  (started) => {
    pipeline = started;
    const { sqsEndpoint, queueUrl, deadLetterQueueUrl, fanOutFailureQueueUrl } = started;
    report({ outcome: 'ready', queues: { sqsEndpoint, queueUrl, deadLetterQueueUrl, fanOutFailureQueueUrl } });
  },
  (error: unknown) => {
    report({ outcome: 'failed', message: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
  },
);
