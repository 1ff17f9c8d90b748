import { runService } from './child-service';
import { prepareInvocationScopes } from './invocation-scope';
import { startWebhookPipeline, type PipelineProcessOptions } from './webhook-pipeline';

/** The webhook pipeline's process (see startWebhookPipelineProcess). */

const options = JSON.parse(process.argv[2] ?? '{}') as PipelineProcessOptions;

prepareInvocationScopes();
runService(
  () => startWebhookPipeline({ ...options, log: (line) => console.log(line) }),
  ({ sqsEndpoint, queueUrl, deadLetterQueueUrl, fanOutFailureQueueUrl }) => ({ sqsEndpoint, queueUrl, deadLetterQueueUrl, fanOutFailureQueueUrl }),
);
