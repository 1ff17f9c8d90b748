import { Duration, Lazy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEAD_LETTER_RETENTION_DAYS } from '../lambdas/definitions/webhooks';

/** SQS publishes queue metrics every minute; one message is already one too many. */
const METRIC_PERIOD = Duration.minutes(1);

export interface WebhookAlarmsProps {
  readonly deadLetters: IQueue;
  readonly fanOutFailures: IQueue;
  /** Subscribed to the alarm topic when given; AWS asks the address to confirm. */
  readonly email?: string;
}

/**
 * Tells the operator, through an SNS topic, as soon as a webhook could not be delivered or
 * produced; other alarms of the stack notify the same topic (notify()).
 */
export class WebhookAlarms extends Construct {
  readonly topic: Topic;
  /** The dead-letter and fan-out failure alarms. */
  readonly alarms: readonly Alarm[];
  private readonly notified: Alarm[] = [];

  constructor(scope: Construct, id: string, { deadLetters, fanOutFailures, email }: WebhookAlarmsProps) {
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
        'stream keeps for 24 hours after they were written.',
      ]),
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
