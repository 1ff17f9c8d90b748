import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import type { TableAccess } from '#lambdas/definitions/access';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import {
  CONSUMED_SECRETS_BATCH_SIZE,
  DELIVERY_BATCH_SIZE,
  DELIVERY_FUNCTION_TIMEOUT_MS,
  FAN_OUT_BATCH_SIZE,
  FAN_OUT_FUNCTION_TIMEOUT_MS,
  FAN_OUT_RETRY_ATTEMPTS,
  PIPELINE_ENTRIES,
  PIPELINE_TABLE_ACCESS,
  QUEUES,
  STREAM_EVENT_FILTER,
} from '#lambdas/definitions/webhooks';
import { ServiceFunction } from './service-function';
import { type WebhookQueues, webhookQueues } from './webhook-queues';

/**
 * A fan-out batch carries both images of up to FAN_OUT_BATCH_SIZE head items, and a head item can
 * hold up to DATA_CHUNK_BYTES of data: several MB of JSON to parse and unmarshal, and Lambda's CPU
 * grows with memory. The routes' size keeps such a batch well inside the function's timeout.
 */
const FAN_OUT_MEMORY_MB = 512;
/**
 * Delivery holds at most DELIVERY_BATCH_SIZE small jobs and reads at most 4 KB of each response; it
 * spends its time waiting on receivers, and no client waits on its cold start.
 */
const DELIVERY_MEMORY_MB = 256;

/** STREAM_EVENT_FILTER as the mapping's filter: Lambda is not even invoked for other records. */
const STREAM_FILTER = FilterCriteria.filter({
  eventName: FilterRule.or(...STREAM_EVENT_FILTER.eventNames),
  dynamodb: { Keys: { [SECRETS_TABLE.sortKey]: { S: FilterRule.or(...STREAM_EVENT_FILTER.sortKeyValues) } } },
});

export interface WebhookPipelineProps {
  readonly tables: Readonly<Record<keyof TableAccess, ITable>>;
  /** Each function's settings (lib/config.ts functionEnvironment). */
  readonly settings: (fn: keyof typeof PIPELINE_ENTRIES) => Readonly<Record<string, string>>;
}

/**
 * Secrets table stream → fan-out function → jobs queue → delivery function → receiver. Delivery
 * retries a failed job itself, by delaying the message and reporting it failed; after the last
 * attempt the jobs queue moves it to the dead-letter queue.
 */
export class WebhookPipeline extends Construct {
  readonly queues: WebhookQueues;
  readonly fanOut: ServiceFunction;
  readonly delivery: ServiceFunction;

  constructor(scope: Construct, id: string, { tables, settings }: WebhookPipelineProps) {
    super(scope, id);
    this.queues = webhookQueues(this);
    const { jobs, fanOutFailures, consumedSecrets } = this.queues;

    this.fanOut = new ServiceFunction(this, 'FanOut', {
      entry: PIPELINE_ENTRIES.fanOut,
      description: 'Secrets stream: turns secret events into webhook jobs, deletes consumed secrets',
      roleDescription: 'Webhook fan-out: its log group, the secrets stream, reading key owners, deleting consumed secrets, sending jobs',
      memorySizeMb: FAN_OUT_MEMORY_MB,
      timeout: Duration.millis(FAN_OUT_FUNCTION_TIMEOUT_MS),
      environment: {
        [KEYS_TABLE.envVar]: tables.keys.tableName,
        [SECRETS_TABLE.envVar]: tables.secrets.tableName,
        [QUEUES.jobs.envVar]: jobs.queueUrl,
        [QUEUES.consumedSecrets.envVar]: consumedSecrets.queueUrl,
        ...settings('fanOut'),
      },
      tables,
      access: PIPELINE_TABLE_ACCESS.fanOut,
    });
    // SendMessage alone (it covers SendMessageBatch): grantSendMessages would add GetQueueUrl and
    // GetQueueAttributes, which a function handed the queue's URL never calls.
    this.fanOut.function.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [jobs.queueArn, consumedSecrets.queueArn] }));
    // Deletions that wait a keyed last view's retention come back to the fan-out after their delay.
    this.fanOut.function.addEventSource(
      new SqsEventSource(consumedSecrets, { batchSize: CONSUMED_SECRETS_BATCH_SIZE, reportBatchItemFailures: true }),
    );
    this.fanOut.function.addEventSource(
      new DynamoEventSource(tables.secrets, {
        // A mapping added to a live table must not skip the events already in the 24-hour stream.
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: FAN_OUT_BATCH_SIZE,
        bisectBatchOnError: true,
        retryAttempts: FAN_OUT_RETRY_ATTEMPTS,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(fanOutFailures),
        filters: [STREAM_FILTER],
      }),
    );

    this.delivery = new ServiceFunction(this, 'Delivery', {
      entry: PIPELINE_ENTRIES.delivery,
      description: 'Webhooks: delivers each job to its receiver, signed',
      roleDescription: 'Webhook delivery: its log group, reading key owners, consuming the jobs queue',
      memorySizeMb: DELIVERY_MEMORY_MB,
      timeout: Duration.millis(DELIVERY_FUNCTION_TIMEOUT_MS),
      environment: {
        [KEYS_TABLE.envVar]: tables.keys.tableName,
        // A failed attempt delays its own message, which ChangeMessageVisibility addresses by queue URL.
        [QUEUES.jobs.envVar]: jobs.queueUrl,
        ...settings('delivery'),
      },
      tables,
      access: PIPELINE_TABLE_ACCESS.delivery,
    });
    this.delivery.function.addEventSource(new SqsEventSource(jobs, { batchSize: DELIVERY_BATCH_SIZE, reportBatchItemFailures: true }));
  }
}
