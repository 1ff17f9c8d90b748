import type { SQSClient } from '@aws-sdk/client-sqs';
import { localSqsClient, startLocalQueueService, type LocalQueueDefinition, type LocalQueueService } from '#local/queue-service';

/** A local queue service with a jobs queue that dead-letters to its own queue, as the webhook pipeline's pair. */
export interface JobQueues {
  service: LocalQueueService;
  sqs: SQSClient;
  jobsUrl: string;
  deadLettersUrl: string;
}

export interface JobQueuesOptions {
  visibilityTimeoutMs: number;
  /** Receives after which a job moves to the dead letters. */
  maxReceiveCount: number;
  /** Further queues beside the pair. */
  otherQueues?: LocalQueueDefinition[];
}

/**
 * Starts the jobs and dead-letter queues before each test (handing them to `onStarted`) and
 * stops them after: the set-up the queue service's and the DLQ tool's tests share.
 */
export function jobQueuesForEachTest(options: JobQueuesOptions, onStarted: (queues: JobQueues) => void): void {
  let started: JobQueues | undefined;
  beforeEach(async () => {
    const { visibilityTimeoutMs, maxReceiveCount } = options;
    const service = await startLocalQueueService({
      queues: [
        { name: 'jobs', visibilityTimeoutMs, retentionMs: 60_000, deadLetter: { name: 'dead-letters', maxReceiveCount } },
        { name: 'dead-letters', visibilityTimeoutMs, retentionMs: 60_000 },
        ...(options.otherQueues ?? []),
      ],
    });
    started = { service, sqs: localSqsClient(service.endpoint), jobsUrl: service.queueUrl('jobs'), deadLettersUrl: service.queueUrl('dead-letters') };
    onStarted(started);
  });
  afterEach(async () => {
    started?.sqs.destroy();
    await started?.service.stop();
    started = undefined;
  });
}
