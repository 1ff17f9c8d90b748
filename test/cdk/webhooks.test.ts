import type { DynamoDBRecord } from 'aws-lambda';
import { ENV } from '#lambdas/definitions/env';
import { DEFAULT_LOG_LEVEL } from '#lambdas/definitions/observability';
import { ROUTES } from '#lambdas/definitions/routes';
import { DELIVERY_CLAIM_PK_PREFIX, KEYS_TABLE, SECRETS_TABLE, SECRET_HEAD_SK, SECRET_RECEIPT_SK, secretChunkKey } from '#lambdas/definitions/tables';
import {
  CONSUMED_SECRETS_BATCH_SIZE,
  DEAD_LETTER_RETENTION_DAYS,
  DELIVERY_BATCH_SIZE,
  DELIVERY_FUNCTION_TIMEOUT_MS,
  FAN_OUT_BATCH_SIZE,
  FAN_OUT_FUNCTION_TIMEOUT_MS,
  FAN_OUT_RETRY_ATTEMPTS,
  JOBS_VISIBILITY_TIMEOUT_MS,
  QUEUES,
  STREAM_EVENT_FILTER,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_RETRY_BASE_MS,
} from '#lambdas/definitions/webhooks';
import { delayAfterFailedAttempt } from '#lambdas/webhooks/rules/retry-schedule';
import { actionsByResource, roleOf } from './support/iam';
import { sharedSynthesis, synthesize } from './support/synth';
import {
  asArray,
  at,
  isRecord,
  refTarget,
  resource,
  resourcesOfType,
  roleStatements,
  routeFunctionId,
  tableLogicalId,
  templateJson,
} from './support/template';
import { apiServerErrorsAlarmId, writeUnitsAlarmId } from './support/monitoring';
import { getAtt, mappingFrom, pipelineOf, queueLogicalId } from './support/webhooks';

const { stackName, template } = sharedSynthesis();
const { fanOutMapping, deliveryMapping, fanOutId, deliveryId } = pipelineOf(template);

const queueId = (queue: (typeof QUEUES)[keyof typeof QUEUES]): string => queueLogicalId(template, queue);
const keysTableId = tableLogicalId(template, KEYS_TABLE);
const secretsTableId = tableLogicalId(template, SECRETS_TABLE);
const SECONDS_PER_DAY = 24 * 60 * 60;

const variablesOf = (functionId: string): unknown => at(resource(template, functionId).Properties, 'Environment', 'Variables');

describe('webhook queues', () => {
  it('are exactly the jobs, dead-letter and fan-out failure queues', () => {
    expect(
      resourcesOfType(template, 'AWS::SQS::Queue')
        .map(([id]) => id)
        .sort(),
    ).toEqual(Object.values(QUEUES).map(queueId).sort());
  });

  it.each(Object.values(QUEUES).map((queue) => [queue.id, queue] as const))(
    '%s is encrypted by SQS, keeps messages for the dead-letter retention and refuses requests without TLS',
    (_, queue) => {
      const properties = resource(template, queueId(queue)).Properties;
      expect(at(properties, 'SqsManagedSseEnabled')).toBe(true);
      expect(at(properties, 'MessageRetentionPeriod')).toBe(DEAD_LETTER_RETENTION_DAYS * SECONDS_PER_DAY);

      const policies = resourcesOfType(template, 'AWS::SQS::QueuePolicy').filter(
        ([, policy]) => JSON.stringify(at(policy.Properties, 'Queues')) === JSON.stringify([{ Ref: queueId(queue) }]),
      );
      expect(policies).toHaveLength(1);
      expect(at(policies[0]?.[1].Properties, 'PolicyDocument', 'Statement')).toEqual([
        {
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Resource: getAtt(queueId(queue), 'Arn'),
        },
      ]);
    },
  );

  it('hands a job to the dead-letter queue after its last attempt', () => {
    expect(at(resource(template, queueId(QUEUES.jobs)).Properties, 'RedrivePolicy')).toEqual({
      deadLetterTargetArn: getAtt(queueId(QUEUES.deadLetters), 'Arn'),
      maxReceiveCount: WEBHOOK_ATTEMPTS,
    });
    for (const queue of [QUEUES.deadLetters, QUEUES.fanOutFailures]) {
      expect(at(resource(template, queueId(queue)).Properties, 'RedrivePolicy')).toBeUndefined();
    }
  });

  it('hides a received job for at least 6× the delivery function’s timeout', () => {
    const visibility = at(resource(template, queueId(QUEUES.jobs)).Properties, 'VisibilityTimeout');
    expect(visibility).toBe(JOBS_VISIBILITY_TIMEOUT_MS / 1000);
    const deliveryTimeout = Number(at(resource(template, deliveryId).Properties, 'Timeout'));
    expect(Number(visibility)).toBeGreaterThanOrEqual(6 * deliveryTimeout);
  });
});

/** Lambda event filtering, for the pattern subset the stack uses: nested objects and lists of exact values. */
function filterMatches(pattern: unknown, event: unknown): boolean {
  if (Array.isArray(pattern)) {
    const values: unknown[] = pattern;
    if (!values.every((value) => typeof value === 'string')) throw new Error('pattern uses more than exact values');
    return values.some((value) => value === event);
  }
  if (!isRecord(pattern) || !isRecord(event)) return false;
  return Object.entries(pattern).every(([key, inner]) => filterMatches(inner, event[key]));
}

const streamRecord = (eventName: DynamoDBRecord['eventName'], sortKey: string): DynamoDBRecord => ({
  eventID: '1',
  eventName,
  eventSource: 'aws:dynamodb',
  dynamodb: {
    Keys: { [SECRETS_TABLE.partitionKey]: { S: 'secret-id' }, [SECRETS_TABLE.sortKey]: { S: sortKey } },
    SequenceNumber: '100',
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  },
});

describe('the fan-out’s event source mapping', () => {
  const [filter] = asArray(at(fanOutMapping.Properties, 'FilterCriteria', 'Filters'));
  const pattern: unknown = JSON.parse(String(at(filter, 'Pattern')));

  it('reads the secrets table’s stream from its oldest record, in bisected, partially failing batches', () => {
    expect(fanOutMapping.Properties).toEqual({
      EventSourceArn: getAtt(secretsTableId, 'StreamArn'),
      FunctionName: { Ref: fanOutId },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: FAN_OUT_BATCH_SIZE,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: FAN_OUT_RETRY_ATTEMPTS,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: getAtt(queueId(QUEUES.fanOutFailures), 'Arn') } },
      FilterCriteria: { Filters: [{ Pattern: expect.any(String) }] },
    });
  });

  it('filters on the event names and head-item sort keys of STREAM_EVENT_FILTER', () => {
    expect(pattern).toEqual({
      eventName: [...STREAM_EVENT_FILTER.eventNames],
      dynamodb: { Keys: { [SECRETS_TABLE.sortKey]: { S: [...STREAM_EVENT_FILTER.sortKeyValues] } } },
    });
  });

  it.each([
    ['INSERT', SECRET_HEAD_SK, true],
    ['MODIFY', SECRET_HEAD_SK, true],
    // A head's removal leaves its receipt (no event).
    ['REMOVE', SECRET_HEAD_SK, true],
    // A receipt item's own write and TTL deletion never reach the fan-out.
    ['INSERT', SECRET_RECEIPT_SK, false],
    ['REMOVE', SECRET_RECEIPT_SK, false],
    ['INSERT', secretChunkKey('s', 0).sk, false],
    ['MODIFY', secretChunkKey('s', 3).sk, false],
  ] as const)('lets a stream record of %s on sort key %s through: %s', (eventName, sortKey, passes) => {
    expect(filterMatches(pattern, streamRecord(eventName, sortKey))).toBe(passes);
  });
});

describe('the delivery’s event source mapping', () => {
  it('consumes the jobs queue in batches, reporting failures per message, without a batching window', () => {
    expect(deliveryMapping.Properties).toEqual({
      EventSourceArn: getAtt(queueId(QUEUES.jobs), 'Arn'),
      FunctionName: { Ref: deliveryId },
      BatchSize: DELIVERY_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('is one of only three mappings, with the consumed-secrets queue’s, which invokes the fan-out', () => {
    expect(resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')).toHaveLength(3);
    expect(mappingFrom(template, getAtt(queueId(QUEUES.consumedSecrets), 'Arn')).Properties).toEqual({
      EventSourceArn: getAtt(queueId(QUEUES.consumedSecrets), 'Arn'),
      FunctionName: { Ref: fanOutId },
      BatchSize: CONSUMED_SECRETS_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

describe('pipeline functions', () => {
  it("are, with the route functions and aws-cdk-lib's page deployment, every function of the stack", () => {
    const pageDeployment = resourcesOfType(template, 'AWS::Lambda::Function').find(([id]) => id.startsWith('CustomCDKBucketDeployment'));
    const expected = [...ROUTES.map((route) => routeFunctionId(template, route)), fanOutId, deliveryId, pageDeployment?.[0]];
    expect(new Set(expected).size).toBe(ROUTES.length + 3);
    expect(
      resourcesOfType(template, 'AWS::Lambda::Function')
        .map(([id]) => id)
        .sort(),
    ).toEqual(expected.sort());
  });

  it.each([
    ['fan-out', 512, fanOutId, FAN_OUT_FUNCTION_TIMEOUT_MS],
    ['delivery', 256, deliveryId, DELIVERY_FUNCTION_TIMEOUT_MS],
  ] as const)('%s runs on nodejs24.x arm64 with %i MB and its defined timeout', (_, memory, functionId, timeoutMs) => {
    expect(resource(template, functionId).Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: memory,
      Timeout: timeoutMs / 1000,
      Handler: 'index.handler',
    });
  });

  it.each([
    ['fan-out', fanOutId],
    ['delivery', deliveryId],
  ])('%s logs to a log group of its own, kept 30 days', (_, functionId) => {
    const logGroup = refTarget(at(resource(template, functionId).Properties, 'LoggingConfig', 'LogGroup')) ?? '';
    expect(at(resource(template, logGroup).Properties, 'RetentionInDays')).toBe(30);
    const users = resourcesOfType(template, 'AWS::Lambda::Function').filter(
      ([, fn]) => refTarget(at(fn.Properties, 'LoggingConfig', 'LogGroup')) === logGroup,
    );
    expect(users.map(([id]) => id)).toEqual([functionId]);
  });

  it('fan-out learns the log level, its service name (the stack’s), the keys table, the secrets table (to delete consumed secrets), the jobs queue’s and the consumed-secrets queue’s URLs, and nothing else', () => {
    expect(variablesOf(fanOutId)).toEqual({
      [ENV.logLevel]: DEFAULT_LOG_LEVEL,
      [ENV.serviceName]: stackName,
      [KEYS_TABLE.envVar]: { Ref: keysTableId },
      [SECRETS_TABLE.envVar]: { Ref: secretsTableId },
      [QUEUES.jobs.envVar]: { Ref: queueId(QUEUES.jobs) },
      [QUEUES.consumedSecrets.envVar]: { Ref: queueId(QUEUES.consumedSecrets) },
    });
  });

  it('delivery learns the log level, its service name (the stack’s), the keys table, the jobs queue’s URL (to delay retries) and the AWS retry base, and nothing else', () => {
    expect(variablesOf(deliveryId)).toEqual({
      [ENV.logLevel]: DEFAULT_LOG_LEVEL,
      [ENV.serviceName]: stackName,
      [KEYS_TABLE.envVar]: { Ref: keysTableId },
      [QUEUES.jobs.envVar]: { Ref: queueId(QUEUES.jobs) },
      [ENV.webhookRetryBaseMs]: String(WEBHOOK_RETRY_BASE_MS.aws),
    });
  });

  it('the schedule it carries gives a receiver down for 2 hours every event, at the jitter’s shortest', () => {
    const base = Number(at(variablesOf(deliveryId), ENV.webhookRetryBaseMs));
    const waits = [1, 2, 3].map((attempt) => delayAfterFailedAttempt({ attempt }, base, () => 0));
    expect(waits.map((wait) => Math.round(wait / 60_000))).toEqual([1, 11, 130]);
    expect(waits.reduce((sum, wait) => sum + wait)).toBeGreaterThan(2 * 60 * 60 * 1000);
  });
});

describe('pipeline roles', () => {
  const ownLogGroup = (functionId: string): string =>
    JSON.stringify(getAtt(refTarget(at(resource(template, functionId).Properties, 'LoggingConfig', 'LogGroup')) ?? '', 'Arn'));
  const granted = (functionId: string): Record<string, string[]> =>
    Object.fromEntries([...actionsByResource(template, roleOf(template, functionId))].map(([target, actions]) => [target, [...actions].sort()]));
  const arn = (logicalId: string, attribute = 'Arn'): string => JSON.stringify(getAtt(logicalId, attribute));

  it('fan-out: its logs, the keys it reads, deleting consumed secrets and writing receipts, the secrets stream, sending jobs, its on-failure queue, and sending and consuming delayed deletions', () => {
    expect(granted(fanOutId)).toEqual({
      [ownLogGroup(fanOutId)]: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      [arn(keysTableId)]: ['dynamodb:BatchGetItem'],
      // GetItem: the settling read of a deletion whose answer was lost; PutItem: receipts.
      [arn(secretsTableId)]: ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
      // What Lambda needs to read the stream; ListStreams accepts no narrower resource.
      [arn(secretsTableId, 'StreamArn')]: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
      [JSON.stringify('*')]: ['dynamodb:ListStreams'],
      [arn(queueId(QUEUES.jobs))]: ['sqs:SendMessage'],
      // What CDK's SqsDlq grants for the mapping's on-failure destination.
      [arn(queueId(QUEUES.fanOutFailures))]: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
      // SendMessage, and what CDK's SqsEventSource grants.
      [arn(queueId(QUEUES.consumedSecrets))]: [
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
      ],
    });
  });

  it('delivery: its logs, the key it reads, its delivery claims, and consuming the jobs queue (visibility changes included)', () => {
    expect(granted(deliveryId)).toEqual({
      [ownLogGroup(deliveryId)]: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      [arn(keysTableId)]: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
      // What CDK's SqsEventSource grants.
      [arn(queueId(QUEUES.jobs))]: [
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
      ],
    });
  });

  it('delivery writes claim items only: never a key', () => {
    const writes = roleStatements(template, roleOf(template, deliveryId)).filter((statement) =>
      asArray(statement.Action).includes('dynamodb:PutItem'),
    );
    expect(writes.map((statement) => at(statement, 'Condition', 'ForAllValues:StringLike', 'dynamodb:LeadingKeys'))).toEqual([
      [`${DELIVERY_CLAIM_PK_PREFIX}*`],
    ]);
  });

  it('POST /keys/webhook/test may send to the jobs queue, and nothing else of the pipeline', () => {
    const route = ROUTES.find((candidate) => candidate.sendsWebhookJobs);
    const functionId = routeFunctionId(template, route!);
    const queues = Object.values(QUEUES).map((queue) => arn(queueId(queue)));
    expect(Object.entries(granted(functionId)).filter(([target]) => queues.includes(target))).toEqual([
      [arn(queueId(QUEUES.jobs)), ['sqs:SendMessage']],
    ]);
    expect(variablesOf(functionId)).toMatchObject({ [QUEUES.jobs.envVar]: { Ref: queueId(QUEUES.jobs) } });
  });

  it.each([
    ['fan-out', fanOutId],
    ['delivery', deliveryId],
  ])('%s’s role carries no managed policy and is assumable by Lambda only', (_, functionId) => {
    const role = resource(template, roleOf(template, functionId));
    expect(at(role.Properties, 'ManagedPolicyArns')).toBeUndefined();
    expect(at(role.Properties, 'AssumeRolePolicyDocument', 'Statement')).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
    ]);
  });
});

describe('webhook alarms', () => {
  const [topicId] = resourcesOfType(template, 'AWS::SNS::Topic')[0] ?? [];
  // Every alarm but the API's 5xx alarm and the write-units alarm, which test/cdk/monitoring.test.ts
  // and test/cdk/sign-in.test.ts cover.
  const otherAlarmIds = [apiServerErrorsAlarmId(template), writeUnitsAlarmId(template)];
  const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm').filter(([id]) => !otherAlarmIds.includes(id));
  const alarmOn = (queue: (typeof QUEUES)[keyof typeof QUEUES]): [string, Record<string, unknown> | undefined] => {
    const found = alarms.filter(
      ([, alarm]) =>
        JSON.stringify(at(alarm.Properties, 'Dimensions')) === JSON.stringify([{ Name: 'QueueName', Value: getAtt(queueId(queue), 'QueueName') }]),
    );
    expect(found).toHaveLength(1);
    const [id, alarm] = found[0] ?? [];
    return [id ?? '', alarm?.Properties];
  };

  // The stack's own functions; CDK's bucket-deployment handler runs only while deploying.
  const functionIds = [...ROUTES.map((route) => routeFunctionId(template, route)), fanOutId, deliveryId];
  const errorsAlarmOn = (functionId: string): [string, Record<string, unknown> | undefined] => {
    const found = alarms.filter(
      ([, alarm]) =>
        at(alarm.Properties, 'MetricName') === 'Errors' &&
        JSON.stringify(at(alarm.Properties, 'Dimensions')) === JSON.stringify([{ Name: 'FunctionName', Value: { Ref: functionId } }]),
    );
    expect(found).toHaveLength(1);
    const [id, alarm] = found[0] ?? [];
    return [id ?? '', alarm?.Properties];
  };
  const iteratorAgeAlarm = (): [string, Record<string, unknown> | undefined] => {
    const found = alarms.filter(([, alarm]) => at(alarm.Properties, 'MetricName') === 'IteratorAge');
    expect(found).toHaveLength(1);
    const [id, alarm] = found[0] ?? [];
    return [id ?? '', alarm?.Properties];
  };

  /** What every webhook alarm shares: each minute judged alone, from `threshold` on, no data read as fine, told to the topic. */
  const minuteAlarmToTopic = (threshold: number): Record<string, unknown> => ({
    Period: 60,
    EvaluationPeriods: 1,
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    Threshold: threshold,
    TreatMissingData: 'notBreaching',
    AlarmActions: [{ Ref: topicId }],
  });

  it("are one alarm per queue that must stay empty, one on the fan-out's iterator age and one per function, on one topic", () => {
    expect(resourcesOfType(template, 'AWS::SNS::Topic')).toHaveLength(1);
    // Every function but CDK's bucket-deployment handler, which runs only while deploying.
    const others = resourcesOfType(template, 'AWS::Lambda::Function')
      .map(([id]) => id)
      .filter((id) => !functionIds.includes(id));
    expect(others).toEqual([expect.stringMatching(/^CustomCDKBucketDeployment/)]);
    expect(alarms).toHaveLength(2 + 1 + functionIds.length);
  });

  it.each([
    ['dead-letter', QUEUES.deadLetters],
    ['fan-out failures', QUEUES.fanOutFailures],
  ])('the %s queue alarms on its first visible message, tells the topic, and reads no data as empty', (_, queue) => {
    const [, alarm] = alarmOn(queue);
    expect(alarm).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Statistic: 'Maximum',
      ...minuteAlarmToTopic(1),
    });
    expect(at(alarm, 'OKActions')).toBeUndefined();
    expect(String(at(alarm, 'AlarmDescription')).length).toBeGreaterThan(40);
  });

  it('alarms once the fan-out reads the secrets stream 15 minutes behind, and reads no data as caught up', () => {
    const [, alarm] = iteratorAgeAlarm();
    expect(alarm).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: fanOutId } }],
      Statistic: 'Maximum',
      ...minuteAlarmToTopic(15 * 60 * 1000),
    });
  });

  it.each([
    ...ROUTES.map((route) => [`route ${route.name}`, () => routeFunctionId(template, route)] as const),
    ['fan-out', () => fanOutId] as const,
    ['delivery', () => deliveryId] as const,
  ])('the %s function alarms on its first error in a minute and tells the topic', (_, functionId) => {
    const [, alarm] = errorsAlarmOn(functionId());
    expect(alarm).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      ...minuteAlarmToTopic(1),
    });
    expect(String(at(alarm, 'AlarmDescription')).length).toBeGreaterThan(40);
  });

  it('lets exactly these alarms, the API’s 5xx alarm and the write-units alarm publish to the topic, and nobody publish without TLS', () => {
    const publishers = [alarmOn(QUEUES.deadLetters), alarmOn(QUEUES.fanOutFailures), iteratorAgeAlarm(), ...functionIds.map(errorsAlarmOn)].map(
      ([id]) => getAtt(id, 'Arn'),
    );
    publishers.push(...otherAlarmIds.map((id) => getAtt(id, 'Arn')));
    const policies = resourcesOfType(template, 'AWS::SNS::TopicPolicy');
    expect(policies).toHaveLength(1);
    expect(at(policies[0]?.[1].Properties, 'Topics')).toEqual([{ Ref: topicId }]);
    expect(at(policies[0]?.[1].Properties, 'PolicyDocument', 'Statement')).toEqual([
      {
        Sid: expect.any(String),
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Effect: 'Deny',
        Principal: '*',
        Resource: { Ref: topicId },
      },
      {
        Sid: expect.any(String),
        Action: 'sns:Publish',
        Condition: { ArnLike: { 'aws:SourceArn': publishers } },
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Resource: { Ref: topicId },
      },
    ]);
  });

  it('has no subscription unless alarmEmail is given', () => {
    expect(resourcesOfType(template, 'AWS::SNS::Subscription')).toEqual([]);
  });

  it('subscribes alarmEmail to the topic', () => {
    const withEmail = synthesize({ alarmEmail: 'ops@example.com' }).template;
    const [emailTopicId] = resourcesOfType(withEmail, 'AWS::SNS::Topic')[0] ?? [];
    expect(resourcesOfType(withEmail, 'AWS::SNS::Subscription').map(([, subscription]) => subscription.Properties)).toEqual([
      { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: emailTopicId } },
    ]);
  });
});

describe('webhook outputs', () => {
  const outputs = templateJson(template).Outputs ?? {};
  const [topicId] = resourcesOfType(template, 'AWS::SNS::Topic')[0] ?? [];

  it.each([
    ['WebhookQueueUrl', { Ref: queueId(QUEUES.jobs) }, '--queue-url'],
    ['WebhookDeadLetterQueueUrl', { Ref: queueId(QUEUES.deadLetters) }, 'npm run dlq -- list --dlq-url'],
    ['WebhookFanOutFailureQueueUrl', { Ref: queueId(QUEUES.fanOutFailures) }, 'npm run dlq -- replay --failures-url'],
    ['WebhookAlarmTopicArn', { Ref: topicId }, 'SNS topic'],
  ])('%s is output, with a description saying what it is for', (name, value, described) => {
    expect(outputs[name]).toEqual({ Value: value, Description: expect.stringContaining(described) });
  });
});

describe('WEBHOOK_ALLOW_LOOPBACK', () => {
  it.each([
    ['defaults', {}],
    ['every context value set', { siteUrl: 'https://secrets.example.com', webhookRetryBaseMs: 1000, alarmEmail: 'ops@example.com' }],
  ])('is set on no function of the stack, with %s', (_, context) => {
    const functions = resourcesOfType(synthesize(context).template, 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(ROUTES.length);
    for (const [, fn] of functions) expect(at(fn.Properties, 'Environment', 'Variables')).not.toHaveProperty(ENV.webhookAllowLoopback);
  });
});
