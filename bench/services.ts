import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { ENV } from '#lambdas/definitions/env';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { localSqsClient, startLocalQueueService } from '#local/queue-service';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver';

/**
 * What the webhook functions reach besides the tables: a jobs queue that only the fan-out's
 * measured requests fill, and a receiver on 127.0.0.1 for the delivery's.
 */
export interface BenchServices {
  /**
   * What the stack sets besides the tables (site URL, queue URL), pointed at these stand-ins; in
   * the bench's environment and every cold-start sample's.
   */
  env: Record<string, string>;
  receiver: WebhookReceiver;
  jobsQueueArn: string;
  /** Where a house floor that sends to SQS sends its message: never read. */
  floorQueueUrl: string;
  /** Removes and counts the jobs queued since the last call. */
  takeQueuedJobs(): Promise<number>;
  stop(): Promise<void>;
}

const JOBS_QUEUE = 'bench-webhook-jobs';
const FLOOR_QUEUE = 'bench-floor';
const QUEUE_SETTINGS = { visibilityTimeoutMs: 60_000, retentionMs: 60 * 60 * 1000 };
/** Route functions need one; the links it forms are never followed. */
const SITE_URL = 'https://secrets.bench.invalid';
const SQS_MAX_RECEIVE = 10;

export async function startBenchServices(): Promise<BenchServices> {
  const receiver = await startWebhookReceiver();
  try {
    const queues = await startLocalQueueService({
      queues: [JOBS_QUEUE, FLOOR_QUEUE].map((name) => ({ name, ...QUEUE_SETTINGS })),
    });
    const sqs = localSqsClient(queues.endpoint);
    const queueUrl = queues.queueUrl(JOBS_QUEUE);

    const takeQueuedJobs = async (): Promise<number> => {
      let taken = 0;
      for (;;) {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: SQS_MAX_RECEIVE, WaitTimeSeconds: 0 }),
        );
        if (Messages.length === 0) return taken;
        for (const { ReceiptHandle } of Messages) {
          await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle }));
        }
        taken += Messages.length;
      }
    };

    return {
      env: {
        [ENV.siteUrl]: SITE_URL,
        [ENV.webhookAllowLoopback]: '1',
        [ENV.sqsEndpoint]: queues.endpoint,
        [QUEUES.jobs.envVar]: queueUrl,
      },
      receiver,
      jobsQueueArn: queues.queueArn(JOBS_QUEUE),
      floorQueueUrl: queues.queueUrl(FLOOR_QUEUE),
      takeQueuedJobs,
      stop: async () => {
        sqs.destroy();
        try {
          await queues.stop();
        } finally {
          await receiver.stop();
        }
      },
    };
  } catch (error) {
    await receiver.stop();
    throw error;
  }
}
