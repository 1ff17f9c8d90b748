import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { ENV } from '#lambdas/definitions/env';
import { SETTINGS } from '#lambdas/config/settings';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { ensureTables, localTableName } from '#local/create-tables';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { localSqsClient, startLocalQueueService } from '#local/queue-service';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver';

/**
 * DynamoDB Local with the stack's tables, local mode's queue service, a webhook receiver; and this
 * process's environment set as a function's, so that it can invoke the handlers and write fixtures.
 */
export interface BenchEnvironment {
  /** What a function's process needs: this process's additions, and every cold-start sample's whole environment. */
  env: Record<string, string>;
  receiver: WebhookReceiver;
  /** Where a house floor that sends to SQS sends its messages: never read. */
  floorQueueUrl: string;
  /** Messages in the jobs queue: they are never received, so the count only grows. */
  queuedJobs(): Promise<number>;
  stop(): Promise<void>;
}

export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    // DynamoDB Local, started first, stops last: its java process would outlive ours.
    for (const each of stops.reverse()) await each().catch((error: unknown) => console.error(error));
  };
  try {
    const dynamoDb = await startDynamoDbLocal('any', undefined);
    stops.push(() => dynamoDb.stop());
    await ensureTables(dynamoDb.endpoint, localTableName);
    const receiver = await startWebhookReceiver();
    stops.push(() => receiver.stop());
    const queue = (name: string) => ({ name, visibilityTimeoutMs: 60_000, retentionMs: 3_600_000 });
    const queues = await startLocalQueueService({ queues: [queue('bench-jobs'), queue('bench-floor')] });
    stops.push(() => queues.stop());
    const sqs = localSqsClient(queues.endpoint);
    stops.push(() => Promise.resolve(sqs.destroy()));
    const jobsQueueUrl = queues.queueUrl('bench-jobs');
    const env: Record<string, string> = {
      AWS_REGION: LOCAL_AWS_SETTINGS.region,
      AWS_ACCESS_KEY_ID: LOCAL_AWS_SETTINGS.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_AWS_SETTINGS.credentials.secretAccessKey,
      [ENV.dynamodbEndpoint]: dynamoDb.endpoint,
      [KEYS_TABLE.envVar]: localTableName(KEYS_TABLE),
      [SECRETS_TABLE.envVar]: localTableName(SECRETS_TABLE),
      [SETTINGS.siteUrl.env]: 'https://secrets.bench.invalid', // for the links the routes form, never followed
      [SETTINGS.webhookAllowLoopback.env]: '1',
      [ENV.sqsEndpoint]: queues.endpoint,
      [QUEUES.jobs.envVar]: jobsQueueUrl,
    };
    Object.assign(process.env, env);
    const queuedJobs = async (): Promise<number> => {
      const attributes = new GetQueueAttributesCommand({ QueueUrl: jobsQueueUrl, AttributeNames: ['ApproximateNumberOfMessages'] });
      return Number((await sqs.send(attributes)).Attributes?.ApproximateNumberOfMessages);
    };
    return { env, receiver, floorQueueUrl: queues.queueUrl('bench-floor'), queuedJobs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
