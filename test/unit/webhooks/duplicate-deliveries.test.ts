import '#test/unit/support/webhook-env';
import { ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { DeleteCommand, GetCommand, PutCommand, type DeleteCommandInput, type PutCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { lambdaContext } from '#local/lambda-context';
import { localSqsClient, startLocalQueueService, type LocalQueueService } from '#local/queue-service';
import { keyItemPk } from '#lambdas/definitions/tables';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { webhookEventId } from '#lambdas/webhooks/events';
import type { WebhookJob } from '#lambdas/webhooks/rules/webhook-job';
import { startFaultProxy, type FaultProxy } from '#test/integration/support/fault-proxy';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver';
import { conditionFailed, mockDocumentClient } from '#test/unit/support/dynamo';

/**
 * Issue 57 item 8, duplicate deliveries with healthy receivers: the fan-out sent one job, yet two
 * queue messages carried it. The cause, shown here with the real SQS client and local mode's
 * queue: a SendMessage that the queue applied but answered after the SDK's request timeout (a
 * busy pipeline process) is sent again by the SDK. The delivery claims each event for the first
 * message that attempts it, so the receiver still gets it once.
 */

const QUEUE = 'duplicate-jobs';
const OWNER = 'ab'.repeat(32);
const job: WebhookJob = {
  eventId: webhookEventId('AbCdEfGhIjKlMnOpQrStUv', 'secret.created', 1),
  owner: OWNER,
  event: { event: 'secret.created', timestamp: 1_750_000_000_000, data: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
};

const ddb = mockDocumentClient();
/** The keys table's claim items, as DynamoDB would keep them under the claim's condition. */
const claims = new Map<string, unknown>();
let queues: LocalQueueService;
let proxy: FaultProxy;
let receiver: WebhookReceiver;
let enqueueWebhookJob: (job: WebhookJob) => Promise<void>;
let deliver: (event: SQSEvent) => Promise<SQSBatchResponse>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  queues = await startLocalQueueService({ queues: [{ name: QUEUE, visibilityTimeoutMs: 30_000, retentionMs: 60_000 }] });
  proxy = await startFaultProxy(queues.endpoint);
  // The functions' SQS client is built when its module loads: point it at the proxy first.
  process.env.SQS_ENDPOINT = proxy.endpoint;
  process.env[QUEUES.jobs.envVar] = queues.queueUrl(QUEUE);
  process.env.AWS_ACCESS_KEY_ID = LOCAL_AWS_SETTINGS.credentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_AWS_SETTINGS.credentials.secretAccessKey;
  ({ enqueueWebhookJob } = await import('#lambdas/webhooks/queue/webhook-jobs'));
  const { handler } = await import('#lambdas/webhooks/handlers/webhook-delivery');
  deliver = (event) => handler(event, lambdaContext('delivery', 'unit-request', 20_000));
});
afterAll(async () => {
  await proxy.stop();
  await queues.stop();
  await receiver.stop();
});

beforeEach(() => {
  ddb.reset();
  claims.clear();
  receiver.clear();
  ddb
    .on(GetCommand, { Key: { pk: keyItemPk(OWNER) } })
    .resolves({ Item: { webhook: receiver.url('/hook'), webhookSecret: `whsec_${'Q'.repeat(32)}` } });
  ddb.on(PutCommand).callsFake(({ Item }: PutCommandInput) => {
    const held = claims.get(String(Item?.pk));
    if (held !== undefined && held !== Item?.claimedBy) throw conditionFailed();
    claims.set(String(Item?.pk), Item?.claimedBy);
    return {};
  });
  ddb.on(DeleteCommand).callsFake(({ Key, ExpressionAttributeValues }: DeleteCommandInput) => {
    // The release's condition names one value: the message that claimed the event.
    if (claims.get(String(Key?.pk)) !== Object.values(ExpressionAttributeValues ?? {})[0]) throw conditionFailed();
    claims.delete(String(Key?.pk));
    return {};
  });
});

async function receiveAll(): Promise<Message[]> {
  const client = localSqsClient(queues.endpoint);
  try {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: queues.queueUrl(QUEUE), MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'] }),
    );
    return Messages;
  } finally {
    client.destroy();
  }
}

const recordOf = (message: Message) => ({
  messageId: message.MessageId ?? '',
  receiptHandle: message.ReceiptHandle ?? '',
  body: message.Body ?? '',
  attributes: {
    ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
    SentTimestamp: message.Attributes?.SentTimestamp ?? '0',
    SenderId: 'local',
    ApproximateFirstReceiveTimestamp: message.Attributes?.ApproximateFirstReceiveTimestamp ?? '0',
  },
  messageAttributes: {},
  md5OfBody: message.MD5OfBody ?? '',
  eventSource: 'aws:sqs',
  eventSourceARN: queues.queueArn(QUEUE),
  awsRegion: LOCAL_AWS_SETTINGS.region,
});

test('a copy that arrives after the event was delivered (a retried stream batch) is dropped too', async () => {
  const copyOf = (id: string) => recordOf({ MessageId: id, ReceiptHandle: `receipt-${id}`, Body: JSON.stringify(job) });
  await deliver({ Records: [copyOf('first')] });
  expect(await deliver({ Records: [copyOf('later')] })).toEqual({ batchItemFailures: [] });
  expect(receiver.received('/hook')).toHaveLength(1);
});

test('a SendMessage answered too late is sent twice, and the event still reaches the receiver once', async () => {
  // The queue applies the send; its answer never comes, and the SDK's request timeout sends it again.
  proxy.failNext('silence', (call) => call.operation === 'SendMessage');
  await enqueueWebhookJob(job);

  const messages = await receiveAll();
  expect(messages.map((message) => message.Body)).toEqual([JSON.stringify(job), JSON.stringify(job)]);

  // Side by side, as two invocations would take them: both done (the copy dropped), one request.
  const responses = await Promise.all(messages.map((message) => deliver({ Records: [recordOf(message)] })));
  expect(responses).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
  expect(receiver.received('/hook').map((request) => request.headers['x-svc-event-id'])).toEqual([job.eventId]);
});
