import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { SETTINGS } from '#lambdas/config/settings';
import { ENV } from '#lambdas/definitions/env';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { localSqsClient, startLocalQueueService } from '#local/queue-service';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver';

/**
 * What the webhook functions reach besides the tables, owned by the cold-start bench rather than
 * shared with local mode: a jobs queue that only the fan-out samples fill (local mode's own
 * pipeline would consume from its queue), and a receiver on 127.0.0.1 for the delivery samples.
 */
export interface ColdStartServices {
  /**
   * What the stack sets besides the tables (site URL, queue URL), pointed at these stand-ins; added
   * to every sample's environment, the floors' too.
   */
  env: Record<string, string>;
  receiver: WebhookReceiver;
  jobsQueueArn: string;
  /** Where the floor of a function that sends to SQS sends its message: never read. */
  floorQueueUrl: string;
  /** Removes and counts the jobs queued since the last call. */
  takeQueuedJobs(): Promise<number>;
  stop(): Promise<void>;
}

const JOBS_QUEUE = 'cold-start-webhook-jobs';
const FLOOR_QUEUE = 'cold-start-floor';
const QUEUE_SETTINGS = { visibilityTimeoutMs: 60_000, retentionMs: 60 * 60 * 1000 };
/** Route functions need one; the links it forms are never followed. */
const SITE_URL = 'https://secrets.bench.invalid';
const SQS_MAX_RECEIVE = 10;

export async function startColdStartServices(): Promise<ColdStartServices> {
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
        [SETTINGS.siteUrl.env]: SITE_URL,
        [SETTINGS.webhookAllowLoopback.env]: '1',
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
