import '#test/unit/support/webhook-env';
import type { ChangeMessageVisibilityCommandInput } from '@aws-sdk/client-sqs';
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { lambdaContext } from '#local/lambda-context';
import { handler } from '#lambdas/webhooks/handlers/webhook-delivery';
import { LOG_MESSAGES, METRICS, SERVICE_NAME } from '#lambdas/definitions/observability';
import { WEBHOOK_ATTEMPTS } from '#lambdas/definitions/webhooks';
import { keyItemPk } from '#lambdas/definitions/tables';
import { webhookEventId } from '#lambdas/webhooks/events';
import type { WebhookJob } from '#lambdas/webhooks/rules/webhook-job';
import { verifyWebhook } from '#client/webhook';
import { mockDocumentClient } from '#test/unit/support/dynamo';
import { TEST_ENV } from '#test/unit/support/env';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver';
import { sqsEvent, sqsRecord } from '#test/unit/support/sqs-records';
import { WEBHOOK_TEST_ENV } from '#test/unit/support/webhook-env';
import { printedLines, printedMetrics, printedText } from '#test/unit/support/printed';

const ddb = mockDocumentClient();
const sqs = mockClient(SQSClient);

const SECRET_ID = 'AbCdEfGhIjKlMnOpQrStUv';
/** A token in the URL's path and query: the URL is a credential of the receiver. */
const URL_TOKEN = 'tok_3f9a1c7e5b2d4a6c8e0f';

interface Owner {
  hash: string;
  webhookSecret: string;
  /** Path on the receiver; undefined: the key has no webhook. */
  path?: string;
}

const OK: Owner = { hash: 'aa'.repeat(32), webhookSecret: 'whsec_' + 'Q'.repeat(32), path: `/ok/${URL_TOKEN}?token=${URL_TOKEN}` };
const FAILING: Owner = { hash: 'bb'.repeat(32), webhookSecret: 'whsec_' + 'R'.repeat(32), path: `/fail/${URL_TOKEN}` };
const NO_WEBHOOK: Owner = { hash: 'cc'.repeat(32), webhookSecret: 'whsec_' + 'S'.repeat(32) };
/** No key item at all: the key was revoked. */
const GONE = 'dd'.repeat(32);
/** Receivers that answer 410 Gone, and 503 with Retry-After: 30. */
const UNSUBSCRIBED: Owner = { hash: 'ee'.repeat(32), webhookSecret: 'whsec_' + 'T'.repeat(32), path: '/gone' };
const BUSY: Owner = { hash: 'ff'.repeat(32), webhookSecret: 'whsec_' + 'U'.repeat(32), path: '/busy' };

let receiver: WebhookReceiver;
const urlOf = (owner: Owner): string => `${receiver.origin}${owner.path ?? ''}`;

beforeAll(async () => {
  receiver = await startWebhookReceiver((path) => (path.startsWith('/fail') ? 500 : 204));
  receiver.answer('/gone', () => ({ status: 410 }));
  receiver.answer('/busy', () => ({ status: 503, headers: { 'retry-after': '30' } }));
});
afterAll(() => receiver.stop());
afterEach(() => jest.restoreAllMocks());

beforeEach(() => {
  receiver.clear();
  ddb.reset();
  sqs.reset();
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
  // The owner's key item as GetItem projects it: {webhook, webhookSecret}.
  ddb.on(GetCommand).callsFake((input: GetCommandInput) => {
    const owner = [OK, FAILING, NO_WEBHOOK, UNSUBSCRIBED, BUSY].find(({ hash }) => input.Key?.pk === keyItemPk(hash));
    if (!owner) return {};
    return { Item: { webhookSecret: owner.webhookSecret, ...(owner.path ? { webhook: urlOf(owner) } : {}) } };
  });
});

const jobFor = (owner: string, remaining = 2): WebhookJob => ({
  eventId: webhookEventId(SECRET_ID, 'secret.viewed', remaining),
  owner,
  event: { event: 'secret.viewed', timestamp: 1_750_000_060_000, data: { id: SECRET_ID } },
});

const messageOf = (job: WebhookJob, receiveCount = 1): SQSRecord => sqsRecord(JSON.stringify(job), receiveCount);

const deliver = (...records: SQSRecord[]): Promise<SQSBatchResponse> =>
  handler(sqsEvent(...records), lambdaContext('delivery', 'unit-request', 20_000));

const visibilityChanges = (): ChangeMessageVisibilityCommandInput[] =>
  sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input);

const failuresOf = (...records: SQSRecord[]): SQSBatchResponse => ({
  batchItemFailures: records.map((record) => ({ itemIdentifier: record.messageId })),
});

describe('a receiver that answers 2xx', () => {
  test('the job is done: no failure reported, its message left alone', async () => {
    const response = await deliver(messageOf(jobFor(OK.hash)));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(visibilityChanges()).toHaveLength(0);
    expect(receiver.received()).toHaveLength(1);
  });

  test('receives a signed POST of exactly the event, under the event id', async () => {
    const job = jobFor(OK.hash);

    await deliver(messageOf(job));

    const [request] = receiver.received();
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(OK.path);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-svc-event-id']).toBe(job.eventId);
    expect(request?.body).toBe(JSON.stringify(job.event));
    const signature = request?.headers['x-svc-signature'];
    expect(typeof signature).toBe('string');
    expect(await verifyWebhook(request?.body ?? '', String(signature), OK.webhookSecret)).toBe(true);
    expect(await verifyWebhook(request?.body ?? '', String(signature), FAILING.webhookSecret)).toBe(false);
  });

  test("carries the Standard Webhooks headers, which that scheme's own library verifies", async () => {
    const job = jobFor(OK.hash);

    await deliver(messageOf(job));

    const [request] = receiver.received();
    const headers = request?.headers as Record<string, string>;
    expect(headers['webhook-id']).toBe(job.eventId);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(new Webhook(OK.webhookSecret).verify(request?.body ?? '', headers)).toEqual(job.event);
    expect(() => new Webhook(FAILING.webhookSecret).verify(request?.body ?? '', headers)).toThrow(WebhookVerificationError);
  });

  test('the owner key is read by its pk in the keys table', async () => {
    await deliver(messageOf(jobFor(OK.hash)));

    const reads = ddb.commandCalls(GetCommand).map((call) => call.args[0].input);
    expect(reads).toEqual([expect.objectContaining({ TableName: TEST_ENV.keysTable, Key: { pk: keyItemPk(OK.hash) } })]);
  });
});

describe('a failing receiver', () => {
  test.each([
    [1, 1],
    [2, 12],
    [3, 144],
  ])('after failed attempt %i the message is hidden for %i s (jitter at its middle) and reported as failed', async (receiveCount, seconds) => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const record = messageOf(jobFor(FAILING.hash), receiveCount);

    const response = await deliver(record);

    expect(receiver.received()).toHaveLength(1);
    expect(response).toEqual(failuresOf(record));
    expect(visibilityChanges()).toEqual([
      { QueueUrl: WEBHOOK_TEST_ENV.jobsQueueUrl, ReceiptHandle: record.receiptHandle, VisibilityTimeout: seconds },
    ]);
  });

  test('after the last attempt the message is released at once, so its next receipt moves it to the DLQ', async () => {
    const record = messageOf(jobFor(FAILING.hash), 4);

    const response = await deliver(record);

    expect(response).toEqual(failuresOf(record));
    expect(visibilityChanges()).toEqual([expect.objectContaining({ ReceiptHandle: record.receiptHandle, VisibilityTimeout: 0 })]);
  });

  test('a 503 with Retry-After: 30 is retried after 30 s, within the schedule', async () => {
    const record = messageOf(jobFor(BUSY.hash), 1);

    const response = await deliver(record);

    expect(response).toEqual(failuresOf(record));
    expect(visibilityChanges()).toEqual([expect.objectContaining({ ReceiptHandle: record.receiptHandle, VisibilityTimeout: 30 })]);
  });

  test('a 410 Gone ends the retries: no failure reported, the message not hidden, counted and logged', async () => {
    const job = jobFor(UNSUBSCRIBED.hash);

    const response = await deliver(messageOf(job, 1));

    expect(receiver.received()).toHaveLength(1);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(visibilityChanges()).toHaveLength(0);
    expect(printedMetrics()).toEqual([expect.objectContaining({ event: 'secret.viewed', [METRICS.webhooksGone]: 1 })]);
    expect(printedLines()).toContainEqual(
      expect.objectContaining({ level: 'WARN', message: LOG_MESSAGES.webhookAttempt, eventId: job.eventId, outcome: 'gone', retriesStopped: true }),
    );
  });

  test('only the failed message of a mixed batch is reported', async () => {
    const delivered = messageOf(jobFor(OK.hash, 2));
    const failed = messageOf(jobFor(FAILING.hash, 1));

    const response = await deliver(delivered, failed);

    expect(response).toEqual(failuresOf(failed));
    expect(visibilityChanges().map((input) => input.ReceiptHandle)).toEqual([failed.receiptHandle]);
    expect(
      receiver
        .received()
        .map((request) => request.path)
        .sort(),
    ).toEqual([FAILING.path, OK.path].sort());
  });

  test('invocations running side by side (local mode) each report their own failures', async () => {
    const failed = messageOf(jobFor(FAILING.hash, 1));
    const delivered = messageOf(jobFor(OK.hash, 2));

    const responses = await Promise.all([deliver(failed), deliver(delivered)]);

    expect(responses).toEqual([failuresOf(failed), { batchItemFailures: [] }]);
  });

  test('a batch in which every message fails is reported, not thrown', async () => {
    const records = [messageOf(jobFor(FAILING.hash, 2), 1), messageOf(jobFor(FAILING.hash, 1), 2)];

    await expect(deliver(...records)).resolves.toEqual(failuresOf(...records));
  });
});

describe('nothing to deliver', () => {
  test.each([
    ['a key without a webhook', NO_WEBHOOK.hash],
    ['a key that is gone', GONE],
  ])('%s: success, no request, the message left alone', async (_case, owner) => {
    const response = await deliver(messageOf(jobFor(owner)));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(receiver.received()).toHaveLength(0);
    expect(visibilityChanges()).toHaveLength(0);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });
});

describe('a message that is not a webhook job', () => {
  test.each([
    ['not JSON', 'secret.viewed'],
    ['JSON of another shape', JSON.stringify({ eventId: 'evt_1', owner: OK.hash })],
    ['an unknown event', JSON.stringify({ ...jobFor(OK.hash), event: { event: 'secret.deleted', timestamp: 1, data: { id: SECRET_ID } } })],
  ])('%s fails (and so reaches the DLQ) without any request', async (_case, body) => {
    const record = sqsRecord(body, 1);

    const response = await deliver(record);

    expect(response).toEqual(failuresOf(record));
    expect(receiver.received()).toHaveLength(0);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });
});

describe('metrics', () => {
  const countOf = (metric: string, event: string): number =>
    printedMetrics()
      .filter((line) => line.event === event && line.service === SERVICE_NAME)
      .reduce((sum, line) => sum + Number(line[metric] ?? 0), 0);

  test('count deliveries and failed attempts by event; a key without a webhook counts nothing', async () => {
    const expired: WebhookJob = { ...jobFor(OK.hash, 0), event: { event: 'secret.expired', timestamp: 1_750_000_060_000, data: { id: SECRET_ID } } };

    await deliver(messageOf(jobFor(OK.hash)), messageOf(expired), messageOf(jobFor(FAILING.hash), 2), messageOf(jobFor(NO_WEBHOOK.hash)));

    expect(countOf(METRICS.webhooksDelivered, 'secret.viewed')).toBe(1);
    expect(countOf(METRICS.webhooksDelivered, 'secret.expired')).toBe(1);
    expect(countOf(METRICS.webhookAttemptsFailed, 'secret.viewed')).toBe(1);
    expect(countOf(METRICS.webhooksDeadLettered, 'secret.viewed')).toBe(0);
    expect(printedMetrics()).toHaveLength(3);
  });

  test('a failed last attempt counts as failed and dead-lettered, and is logged as an error', async () => {
    const job = jobFor(FAILING.hash);

    await deliver(messageOf(job, WEBHOOK_ATTEMPTS));

    expect(countOf(METRICS.webhookAttemptsFailed, 'secret.viewed')).toBe(1);
    expect(countOf(METRICS.webhooksDeadLettered, 'secret.viewed')).toBe(1);
    expect(printedLines()).toContainEqual(
      expect.objectContaining({ level: 'ERROR', message: LOG_MESSAGES.webhookAttempt, eventId: job.eventId, deadLettered: true }),
    );
  });
});

describe('logs', () => {
  test('never carry the webhook URL, the signing secret, the signature or the secret id', async () => {
    const delivered = jobFor(OK.hash, 2);

    await deliver(messageOf(delivered), messageOf(jobFor(FAILING.hash, 1), 3), messageOf(jobFor(NO_WEBHOOK.hash, 0)), sqsRecord('{', 1));

    // The attempts are logged, under the event id, which is safe to log.
    expect(printedLines()).toContainEqual(
      expect.objectContaining({ message: LOG_MESSAGES.webhookAttempt, eventId: delivered.eventId, outcome: 'delivered' }),
    );
    const all = printedText();
    const signatures = receiver.received().map((request) => String(request.headers['x-svc-signature']));
    for (const secret of [URL_TOKEN, new URL(receiver.origin).host, OK.webhookSecret, FAILING.webhookSecret, SECRET_ID, ...signatures]) {
      expect(all).not.toContain(secret);
    }
  });
});
