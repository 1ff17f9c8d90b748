import { Duration, Lazy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEAD_LETTER_RETENTION_DAYS } from '#lambdas/definitions/webhooks';

/** SQS and Lambda publish these metrics every minute; one message or one error is already one too many. */
const METRIC_PERIOD = Duration.minutes(1);
/**
 * A fan-out reading this far behind is stuck, not busy: a healthy one reads a record within a
 * second, and a failing batch's 10 bisected retries take a few minutes before it is set aside. The
 * stream keeps records 24 hours, so this leaves almost all of them to act on.
 */
const FAN_OUT_ITERATOR_AGE_ALARM = Duration.minutes(15);

export interface WebhookAlarmsProps {
  readonly deadLetters: IQueue;
  readonly fanOutFailures: IQueue;
  /** The function reading the secrets table's stream, whose iterator age is watched. */
  readonly fanOut: IFunction;
  /** Every function of the stack (routes and pipeline), each alarmed on its errors. */
  readonly functions: readonly IFunction[];
  /** Subscribed to the alarm topic when given; AWS asks the address to confirm. */
  readonly email?: string;
}

/**
 * Tells the operator, through an SNS topic, as soon as a webhook could not be delivered or produced,
 * the fan-out falls behind the stream, or any function of the stack fails an invocation; other
 * alarms of the stack notify the same topic (notify()).
 */
export class WebhookAlarms extends Construct {
  readonly topic: Topic;
  /** Every alarm made here: dead letters, fan-out failures and iterator age, each function's errors. */
  readonly alarms: readonly Alarm[];
  private readonly notified: Alarm[] = [];

  constructor(scope: Construct, id: string, { deadLetters, fanOutFailures, fanOut, functions, email }: WebhookAlarmsProps) {
    super(scope, id);

    // Not encrypted at rest: notifications carry alarm names, states and queue metrics, nothing
    // confidential, and CloudWatch cannot publish to a topic under the AWS managed key, so it would
    // take a customer-managed KMS key, with its monthly cost, to encrypt them.
    this.topic = new Topic(this, 'Topic', { displayName: 'One-time secrets: alarms', enforceSSL: true });
    if (email) this.topic.addSubscription(new EmailSubscription(email));

    this.alarms = [
      queueHoldsMessagesAlarm(this, 'DeadLettersAlarm', deadLetters, [
        'Webhook jobs failed every delivery attempt and wait in the dead-letter queue, which keeps them',
        `${DEAD_LETTER_RETENTION_DAYS} days from when they were first queued. List them with`,
        '`npm run dlq -- list --dlq-url <WebhookDeadLetterQueueUrl>`; once the receiver is fixed, send them back with',
        '`npm run dlq -- redrive --dlq-url <WebhookDeadLetterQueueUrl> --queue-url <WebhookQueueUrl>`.',
      ]),
      queueHoldsMessagesAlarm(this, 'FanOutFailuresAlarm', fanOutFailures, [
        'The webhook fan-out gave up on a batch of secrets-table stream records: their events were never',
        'queued for delivery. Each message names the shard and the range of sequence numbers, which the',
        'stream keeps for 24 hours after they were written: replay them with',
        '`npm run dlq -- replay --failures-url <WebhookFanOutFailureQueueUrl>` (see README, "Webhook dead letters").',
      ]),
      new Alarm(this, 'FanOutIteratorAgeAlarm', {
        alarmDescription: [
          `The webhook fan-out is more than ${FAN_OUT_ITERATOR_AGE_ALARM.toMinutes()} minutes behind the secrets table's stream:`,
          "events wait, and records older than 24 hours leave the stream unread. See the fan-out function's logs.",
        ].join(' '),
        metric: fanOut.metric('IteratorAge', { period: METRIC_PERIOD, statistic: Stats.MAXIMUM }),
        threshold: FAN_OUT_ITERATOR_AGE_ALARM.toMilliseconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        // Lambda reports it only while it reads records.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      // Named after the function's construct (HealthRoute, FanOut, ...): stable as routes come and go.
      ...functions.map((fn) => functionErrorsAlarm(this, `${fn.node.scope?.node.id ?? fn.node.id}ErrorsAlarm`, fn)),
    ];
    for (const alarm of this.alarms) this.notify(alarm);

    // enforceSSL gives the topic a policy of its own, which replaces the default one under which the
    // account's alarms could publish: without this statement no notification would ever arrive.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: { 'aws:SourceArn': Lazy.list({ produce: () => this.notified.map((alarm) => alarm.alarmArn) }) },
        },
      }),
    );
  }

  /** Sends the alarm's state changes to the topic, which only the alarms named here may publish to. */
  notify(alarm: Alarm): void {
    alarm.addAlarmAction(new SnsAction(this.topic));
    this.notified.push(alarm);
  }
}

function queueHoldsMessagesAlarm(scope: Construct, id: string, queue: IQueue, description: readonly string[]): Alarm {
  return new Alarm(scope, id, {
    alarmDescription: description.join(' '),
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: METRIC_PERIOD, statistic: Stats.MAXIMUM }),
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    // An idle queue may report nothing at all, which means it is empty.
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/** An invocation that threw or timed out: a route answered 5xx, or a pipeline batch will be retried. */
function functionErrorsAlarm(scope: Construct, id: string, fn: IFunction): Alarm {
  return new Alarm(scope, id, {
    alarmDescription: `A function of the one-time secrets stack failed an invocation (threw or timed out): ${fn.node.path}. See its logs.`,
    metric: fn.metricErrors({ period: METRIC_PERIOD, statistic: Stats.SUM }),
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}
