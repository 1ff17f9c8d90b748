import * as path from 'node:path';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ENV } from '#lambdas/definitions/env';
import * as WEBHOOKS from '#lambdas/definitions/webhooks';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { LOCAL_ACCOUNT_ID, LOCAL_AWS_SETTINGS } from './aws-account';
import { forkService } from './child-service';
import { fanOutFailureRecord } from './fan-out-failure-record';
import { environmentBeforeScopes, invocationScopes } from './invocation-scope';
import { startQueuePoller, type QueuePollerOptions } from './queue-poller';
import { localSqsClient, startLocalQueueService } from './queue-service';
import { SDK_CALL_LOG_ENV, asFunction, recordSdkCalls } from './sdk-calls';
import { StreamCheckpoint } from './stream-checkpoint';
import { startStreamPoller } from './stream-poller';

/**
 * The stack's webhook pipeline: DynamoDB Local's stream → fan-out → local queues → delivery, with its
 * dead-letter and on-failure queues. With a data directory, a restart (even after kill -9) delivers
 * every pending event at least once, under the same event id.
 */

export interface LocalWebhookPipeline {
  sqsEndpoint: string;
  queueUrl: string;
  deadLetterQueueUrl: string;
  fanOutFailureQueueUrl: string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '..');
type Queue = keyof typeof WEBHOOKS.QUEUES;
const RETENTION_MS = WEBHOOKS.DEAD_LETTER_RETENTION_DAYS * 24 * 60 * 60 * 1000;
/** The stack leaves the dead-letter queue at SQS's default; only `npm run dlq` reads it. */
const SQS_DEFAULT_VISIBILITY_TIMEOUT_MS = 30_000;
/** Invocations in flight per SQS mapping: Lambda scales so one slow batch never holds up another; 50 do for any hand-made backlog. */
const QUEUE_MAX_CONCURRENCY = 50;
/** Receive loops per SQS mapping; Lambda starts one with five. Two keep up with what local mode can send. */
const QUEUE_POLLERS = 2;
/** Lambda polls each shard about four times a second; locally a little more eagerly. */
export const STREAM_POLL_INTERVAL_MS = 100;

const FAN_OUT_FUNCTION_NAME = 'webhook-fan-out';
/** The pipeline's files under local mode's DATA_DIR, beside DynamoDB Local's. */
export const PIPELINE_DATA_SUBDIRECTORY = 'webhook-pipeline';

export interface WebhookPipelineOptions {
  dynamoDbEndpoint: string;
  secretsStreamArn: string;
  /** Replay the stream from its start only for a table created now; a kept one has old history. */
  secretsTableIsNew: boolean;
  /** Local mode's DATA_DIR, where the queues and the stream checkpoint are kept. None: in memory. */
  dataDir?: string;
  log: (line: string) => void;
}

export type PipelineProcessOptions = Omit<WebhookPipelineOptions, 'log'>;

/** In this process; local mode runs it in a process of its own (startWebhookPipelineProcess). */
export async function startWebhookPipeline(options: WebhookPipelineOptions): Promise<LocalWebhookPipeline> {
  const env = process.env;
  const name = (queue: Queue): string => `local-${WEBHOOKS.QUEUES[queue].id}`;
  const directory = options.dataDir ? path.join(options.dataDir, PIPELINE_DATA_SUBDIRECTORY) : undefined;
  const queues = await startLocalQueueService({
    ...(directory ? { directory } : {}),
    queues: [
      {
        name: name('jobs'),
        visibilityTimeoutMs: WEBHOOKS.JOBS_VISIBILITY_TIMEOUT_MS,
        retentionMs: RETENTION_MS,
        deadLetter: { name: name('deadLetters'), maxReceiveCount: WEBHOOKS.WEBHOOK_ATTEMPTS },
      },
      { name: name('deadLetters'), visibilityTimeoutMs: SQS_DEFAULT_VISIBILITY_TIMEOUT_MS, retentionMs: RETENTION_MS },
      { name: name('fanOutFailures'), visibilityTimeoutMs: SQS_DEFAULT_VISIBILITY_TIMEOUT_MS, retentionMs: RETENTION_MS },
      { name: name('consumedSecrets'), visibilityTimeoutMs: WEBHOOKS.CONSUMED_SECRETS_VISIBILITY_TIMEOUT_MS, retentionMs: RETENTION_MS },
    ],
  });
  const url = (queue: Queue): string => queues.queueUrl(name(queue));
  const checkpoint = directory ? new StreamCheckpoint(directory, options.secretsStreamArn) : undefined;
  const sqsClient = localSqsClient(queues.endpoint);
  const pollers: { stop(): Promise<void> }[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(pollers.map((poller) => poller.stop()));
    sqsClient.destroy();
    await queues.stop();
  };

  try {
    env[ENV.sqsEndpoint] = queues.endpoint;
    for (const queue of Object.keys(WEBHOOKS.QUEUES) as Queue[]) env[WEBHOOKS.QUEUES[queue].envVar] = url(queue);

    // The fan-out also takes the consumed-secrets queue's messages, as its second mapping does on AWS.
    const fanOut = (await import(path.join(ROOT, WEBHOOKS.PIPELINE_ENTRIES.fanOut))) as {
      handler: (event: DynamoDBStreamEvent | SQSEvent, context: Context) => Promise<DynamoDBBatchResponse | SQSBatchResponse>;
    };
    const delivery = (await import(path.join(ROOT, WEBHOOKS.PIPELINE_ENTRIES.delivery))) as {
      handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;
    };
    // Delivery invocations run side by side: each in a scope of its own.
    const inScope = await invocationScopes();
    const sdkCallLog = env[SDK_CALL_LOG_ENV];
    if (sdkCallLog) {
      // Loaded with the handlers, built from the endpoints set above.
      recordSdkCalls((await import('#lambdas/store/dynamo')).dynamo, 'dynamodb', sdkCallLog);
      recordSdkCalls((await import('#lambdas/webhooks/queue/sqs')).sqs, 'sqs', sdkCallLog);
    }

    const streamPoller = await startStreamPoller({
      endpoint: options.dynamoDbEndpoint,
      streamArn: options.secretsStreamArn,
      functionName: FAN_OUT_FUNCTION_NAME,
      batchSize: WEBHOOKS.FAN_OUT_BATCH_SIZE,
      retryAttempts: WEBHOOKS.FAN_OUT_RETRY_ATTEMPTS,
      timeoutMs: WEBHOOKS.FAN_OUT_FUNCTION_TIMEOUT_MS,
      // A checkpoint of this stream knows every shard it read: any other one is read whole.
      startingPosition: options.secretsTableIsNew || checkpoint?.kept ? 'TRIM_HORIZON' : 'LATEST',
      pollIntervalMs: STREAM_POLL_INTERVAL_MS,
      handler: inScope(
        asFunction('fanOut', (event: DynamoDBStreamEvent, context: Context) => fanOut.handler(event, context) as Promise<DynamoDBBatchResponse>),
      ),
      ...(checkpoint ? { checkpoint } : {}),
      onGiveUp: async ({ shardId, records, invocations }) => {
        const functionArn = `arn:aws:lambda:${LOCAL_AWS_SETTINGS.region}:${LOCAL_ACCOUNT_ID}:function:${FAN_OUT_FUNCTION_NAME}`;
        const failure = fanOutFailureRecord({ functionArn, streamArn: options.secretsStreamArn, shardId, records, invocations });
        await sqsClient.send(new SendMessageCommand({ QueueUrl: url('fanOutFailures'), MessageBody: JSON.stringify(failure) }));
      },
      log: options.log,
    });
    pollers.push(streamPoller);
    type Mapping = Pick<QueuePollerOptions, 'functionName' | 'batchSize' | 'timeoutMs' | 'handler'>;
    const pollQueue = (queue: Queue, mapping: Mapping): number =>
      pollers.push(
        startQueuePoller({
          ...mapping,
          client: sqsClient,
          queueUrl: url(queue),
          queueArn: queues.queueArn(name(queue)),
          maxConcurrency: QUEUE_MAX_CONCURRENCY,
          pollers: QUEUE_POLLERS,
          log: options.log,
        }),
      );
    pollQueue('jobs', {
      functionName: 'webhook-delivery',
      batchSize: WEBHOOKS.DELIVERY_BATCH_SIZE,
      timeoutMs: WEBHOOKS.DELIVERY_FUNCTION_TIMEOUT_MS,
      handler: inScope(asFunction('delivery', delivery.handler)),
    });
    pollQueue('consumedSecrets', {
      functionName: FAN_OUT_FUNCTION_NAME,
      batchSize: WEBHOOKS.CONSUMED_SECRETS_BATCH_SIZE,
      timeoutMs: WEBHOOKS.FAN_OUT_FUNCTION_TIMEOUT_MS,
      handler: inScope(asFunction('fanOut', (event: SQSEvent, context: Context) => fanOut.handler(event, context) as Promise<SQSBatchResponse>)),
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    sqsEndpoint: queues.endpoint,
    queueUrl: url('jobs'),
    deadLetterQueueUrl: url('deadLetters'),
    fanOutFailureQueueUrl: url('fanOutFailures'),
    stop,
  };
}

/** In a process of its own, as the stack runs them in functions of their own: the API's event loop never waits for them. */
export async function startWebhookPipelineProcess(options: PipelineProcessOptions): Promise<LocalWebhookPipeline> {
  // The same flags as this process (tsx as its loader), so the entry runs from TypeScript as local mode does.
  const { ready, stop } = await forkService<Omit<LocalWebhookPipeline, 'stop'>>(
    path.join(__dirname, 'webhook-pipeline-entry.ts'),
    options,
    { execArgv: process.execArgv, env: environmentBeforeScopes(process.env) },
    { name: "the webhook pipeline's process", lost: 'webhooks are no longer delivered' },
  );
  return { ...ready, stop };
}
