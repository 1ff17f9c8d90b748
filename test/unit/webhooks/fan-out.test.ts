import '../support/webhook-env';
import type { SendMessageCommandInput } from '@aws-sdk/client-sqs';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { lambdaContext } from '#local/lambda-context';
import { handler } from '#lambdas/webhooks/handlers/webhook-fan-out';
import { CLAIMANTS_DONE_MS } from '#contract/limits';
import { SECRET_HEAD_SK, keyItemPk, secretChunkKey } from '#lambdas/definitions/tables';
import { REVOKED_CHUNKS_DELETION_DELAY_MS } from '#lambdas/definitions/webhooks';
import { webhookEventId } from '#lambdas/webhooks/events';
import { webhookJobsOf } from '#lambdas/webhooks/fan-out';
import type { WebhookJob } from '#lambdas/webhooks/rules/webhook-job';
import { mockDocumentClient, resolvedCondition, throttled } from '../support/dynamo';
import { sqsEvent, sqsRecord } from '../support/sqs-records';
import { TEST_ENV } from '../support/env';
import { CREATED, chunk, head, streamRecord } from '../support/stream-records';
import { WEBHOOK_TEST_ENV } from '../support/webhook-env';

const ddb = mockDocumentClient();
const sqs = mockClient(SQSClient);

const OWNER_A = 'aa'.repeat(32);
const OWNER_B = 'bb'.repeat(32);
const OWNER_C = 'cc'.repeat(32);
/** Secret data in the head image: it must never travel through the queue. */
const SECRET_DATA = 'U0VDUkVULURBVEEtbXVzdC1ub3QtbGVhaw==';
const viewedAt = CREATED + 60_000;

const secretId = (n: number): string => `Secret${String(n).padStart(16, '0')}`;

/** A secret.created record of `owner`'s n-th secret. */
const created = (owner: string, n: number): DynamoDBRecord => streamRecord('INSERT', { new: head({ pk: secretId(n), owner, data: SECRET_DATA }) });

const sequenceOf = (record: DynamoDBRecord): string => record.dynamodb?.SequenceNumber ?? '';

/**
 * Answers BatchGetItem on the keys table as DynamoDB would: `webhooks` maps an owner to its
 * webhook (undefined: a key item without one); owners not in it have no key item at all.
 */
function serveKeys(webhooks: Record<string, string | undefined>): void {
  const items = new Map(Object.entries(webhooks).map(([owner, webhook]) => [keyItemPk(owner), webhook]));
  ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const keys = (input.RequestItems?.[TEST_ENV.keysTable]?.Keys ?? []) as { pk: string }[];
    const found = keys.filter(({ pk }) => items.has(pk));
    return {
      Responses: { [TEST_ENV.keysTable]: found.map(({ pk }) => ({ pk, ...(items.get(pk) ? { webhook: items.get(pk) } : {}) })) },
    };
  });
}

const batchGets = (): BatchGetCommandInput[] => ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input);
const sentMessages = (): SendMessageCommandInput[] => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
const sentJobs = (): WebhookJob[] => sentMessages().map((input) => JSON.parse(input.MessageBody ?? '') as WebhookJob);

/** A fresh one per invocation: it counts the invocation's time left from its creation. */
const invocationContext = () => lambdaContext('fan-out', 'unit-request', 30_000);

const fanOut = (...records: DynamoDBRecord[]) => handler({ Records: records } satisfies DynamoDBStreamEvent, invocationContext());

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
});

describe('webhookJobsOf', () => {
  test('keeps the events of keys with a webhook, by the sequence number of their record', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook', [OWNER_B]: undefined });
    const first = created(OWNER_A, 1);
    const second = created(OWNER_B, 2);
    const third = created(OWNER_A, 3);

    const jobs = await webhookJobsOf([first, second, third]);

    expect([...jobs.keys()]).toEqual([sequenceOf(first), sequenceOf(third)]);
    expect(jobs.get(sequenceOf(third))?.event.data.id).toBe(secretId(3));
  });

  test('a batch without events reads no key', async () => {
    const jobs = await webhookJobsOf([streamRecord('REMOVE', { old: head() }), streamRecord('INSERT', { new: chunk(0) })]);
    expect(jobs.size).toBe(0);
    expect(batchGets()).toHaveLength(0);
  });
});

describe('fan-out handler', () => {
  test('reads the owners of the whole batch in one BatchGetItem: each owner once, only pk and webhook', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook', [OWNER_B]: 'https://b.example/hook' });

    await fanOut(created(OWNER_A, 1), created(OWNER_B, 2), created(OWNER_A, 3), created(OWNER_A, 4));

    const reads = batchGets();
    expect(reads).toHaveLength(1);
    const request = reads[0]?.RequestItems?.[TEST_ENV.keysTable];
    expect(Object.keys(reads[0]?.RequestItems ?? {})).toEqual([TEST_ENV.keysTable]);
    expect(request?.Keys).toHaveLength(2);
    expect(request?.Keys).toEqual(expect.arrayContaining([{ pk: keyItemPk(OWNER_A) }, { pk: keyItemPk(OWNER_B) }]));
    const projected = (request?.ProjectionExpression ?? '').split(',').map((name) => request?.ExpressionAttributeNames?.[name.trim()] ?? name.trim());
    expect(projected.sort()).toEqual(['pk', 'webhook']);
    expect(sentMessages()).toHaveLength(4);
  });

  test('events of a key without a webhook, or of a key that is gone, are not queued', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook', [OWNER_B]: undefined });

    const response = await fanOut(created(OWNER_B, 1), created(OWNER_A, 2), created(OWNER_C, 3));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(sentJobs().map((job) => job.owner)).toEqual([OWNER_A]);
  });

  test('the message is exactly the job: event id, owner and the event, with no secret data', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook' });
    const viewed = streamRecord('MODIFY', {
      old: head({ pk: secretId(1), owner: OWNER_A, remaining: 3, data: SECRET_DATA }),
      new: head({ pk: secretId(1), owner: OWNER_A, remaining: 2, viewedAt, readers: 1, data: SECRET_DATA }),
    });

    await fanOut(created(OWNER_A, 1), viewed);

    const messages = sentMessages();
    expect(messages.map((input) => input.QueueUrl)).toEqual([WEBHOOK_TEST_ENV.jobsQueueUrl, WEBHOOK_TEST_ENV.jobsQueueUrl]);
    expect(messages.map((input) => JSON.parse(input.MessageBody ?? '') as unknown)).toEqual([
      {
        eventId: webhookEventId(secretId(1), 'secret.created', 3),
        owner: OWNER_A,
        event: { event: 'secret.created', timestamp: CREATED, data: { id: secretId(1) } },
      },
      {
        eventId: webhookEventId(secretId(1), 'secret.viewed', 2),
        owner: OWNER_A,
        event: { event: 'secret.viewed', timestamp: viewedAt, data: { id: secretId(1) } },
      },
    ]);
    for (const input of messages) expect(input.MessageBody).not.toContain(SECRET_DATA);
  });

  test('records that are not events send nothing: removals, chunks, a reader signing off', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook' });
    const signOff = streamRecord('MODIFY', {
      old: head({ owner: OWNER_A, remaining: 0, readers: 2, viewedAt, chunks: 3 }),
      new: head({ owner: OWNER_A, remaining: 0, readers: 1, viewedAt, chunks: 3 }),
    });

    const response = await fanOut(streamRecord('REMOVE', { old: head({ owner: OWNER_A }) }), streamRecord('INSERT', { new: chunk(0) }), signOff);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(sentMessages()).toHaveLength(0);
    expect(batchGets()).toHaveLength(0);
  });

  test('a record whose job cannot be queued is the only failure reported; the others are queued', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook' });
    const records = [created(OWNER_A, 1), created(OWNER_A, 2), created(OWNER_A, 3)];
    sqs.on(SendMessageCommand).callsFake((input: SendMessageCommandInput) => {
      const job = JSON.parse(input.MessageBody ?? '') as WebhookJob;
      if (job.event.data.id === secretId(2)) throw new Error('SQS is unavailable');
      return { MessageId: job.eventId };
    });

    const response = await fanOut(...records);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: sequenceOf(records[1]!) }] });
    expect(
      sentJobs()
        .map((job) => job.event.data.id)
        .sort(),
    ).toEqual([secretId(1), secretId(2), secretId(3)]);
  });

  test('invocations running side by side (local mode) each report their own failures', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook' });
    const [failing, queued] = [created(OWNER_A, 1), created(OWNER_A, 2)];
    const [other, another] = [created(OWNER_A, 3), created(OWNER_A, 4)];
    sqs.on(SendMessageCommand).callsFake((input: SendMessageCommandInput) => {
      if ((JSON.parse(input.MessageBody ?? '') as WebhookJob).event.data.id === secretId(1)) throw new Error('SQS is unavailable');
      return { MessageId: 'm' };
    });

    const responses = await Promise.all([fanOut(failing, queued), fanOut(other, another)]);

    expect(responses).toEqual([{ batchItemFailures: [{ itemIdentifier: sequenceOf(failing) }] }, { batchItemFailures: [] }]);
  });

  test('when the owners cannot be read the invocation fails, so Lambda retries the whole batch', async () => {
    ddb.on(BatchGetCommand).rejects(throttled());

    await expect(fanOut(created(OWNER_A, 1), created(OWNER_B, 2))).rejects.toThrow();
    expect(sentMessages()).toHaveLength(0);
  });

  test('a record delivered twice is queued twice under the same event id (receivers deduplicate)', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook' });
    const record = created(OWNER_A, 1);

    const response = await fanOut(record, structuredClone(record));

    expect(response).toEqual({ batchItemFailures: [] });
    const ids = sentJobs().map((job) => job.eventId);
    expect(ids).toEqual([webhookEventId(secretId(1), 'secret.created', 3), webhookEventId(secretId(1), 'secret.created', 3)]);
  });

  test('a replayed stream batch re-sends its events under the ids they had', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook' });
    const batch = [created(OWNER_A, 1), created(OWNER_A, 2)];

    await fanOut(...batch);
    await fanOut(...structuredClone(batch));

    const ids = sentJobs().map((job) => job.eventId);
    expect(ids).toHaveLength(4);
    expect(ids.slice(2)).toEqual(ids.slice(0, 2));
  });
});

describe('the stream consumer deletes consumed secrets', () => {
  const lastView = (owner: string, n: number, extra: Record<string, unknown> = {}): DynamoDBRecord =>
    streamRecord('MODIFY', {
      old: head({ pk: secretId(n), owner, remaining: 1, ...extra }),
      new: head({ pk: secretId(n), owner, remaining: 0, viewedAt, readers: 1, ...extra }),
    });
  // Records are processed side by side: compare as sets.
  const deletedIds = (): string[] =>
    ddb
      .commandCalls(DeleteCommand)
      .map((call) => String(call.args[0].input.Key?.pk))
      .sort();

  test('the last view of a secret: its expired event is queued and the secret deleted, webhook or not', async () => {
    serveKeys({ [OWNER_A]: 'https://a.example/hook', [OWNER_B]: undefined });
    ddb.on(DeleteCommand).resolves({ Attributes: head({ remaining: 0 }) });

    const response = await fanOut(lastView(OWNER_A, 1), lastView(OWNER_B, 2), created(OWNER_A, 3));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(deletedIds()).toEqual([secretId(1), secretId(2)]);
    expect(
      sentJobs()
        .map((job) => `${job.event.event} ${job.event.data.id}`)
        .sort(),
    ).toEqual([`secret.created ${secretId(3)}`, `secret.expired ${secretId(1)}`]);
  });

  test('the last view keeps its receipt before the head is deleted, so a status read never finds neither', async () => {
    serveKeys({});
    ddb.on(DeleteCommand).resolves({ Attributes: head({ remaining: 0 }) });

    await fanOut(lastView(OWNER_A, 1));

    const writes = ddb.calls().map((call) => call.args[0]);
    const put = writes.findIndex(
      (command) => command instanceof PutCommand && (command.input.Item as { pk?: string } | undefined)?.pk === secretId(1),
    );
    const deleted = writes.findIndex((command) => command instanceof DeleteCommand);
    expect({ put: put >= 0, deleted: deleted >= 0 }).toEqual({ put: true, deleted: true });
    expect(put).toBeLessThan(deleted);
  });

  test('a chunked secret is left while a claimant still reads it, and queued for when every claim has surely ended', async () => {
    serveKeys({});
    const viewed = Date.now();
    await fanOut(lastView(OWNER_A, 1, { chunks: 2, viewedAt: viewed }));
    const sent = Date.now();

    expect(deletedIds()).toEqual([]);
    // Its readers' sign-offs delete it sooner; this deletes it if one of them never settles.
    const [message, ...others] = sentMessages();
    expect(others).toEqual([]);
    expect(message?.QueueUrl).toBe(WEBHOOK_TEST_ENV.consumedSecretsQueueUrl);
    expect(JSON.parse(message?.MessageBody ?? '')).toEqual({ id: secretId(1), chunks: 2 });
    expect(message?.DelaySeconds).toBeGreaterThanOrEqual(Math.floor((viewed + CLAIMANTS_DONE_MS - sent) / 1000));
    expect(message?.DelaySeconds).toBeLessThanOrEqual(Math.ceil(CLAIMANTS_DONE_MS / 1000));
  });

  test('a secret that cannot be deleted is a failure of its record only, so the stream retries it', async () => {
    serveKeys({});
    const [failing, deleted] = [lastView(OWNER_A, 1), lastView(OWNER_A, 2)];
    ddb.on(DeleteCommand, { Key: { pk: secretId(1) } }).rejects(throttled());
    ddb.on(DeleteCommand, { Key: { pk: secretId(2) } }).resolves({});

    const response = await fanOut(failing, deleted);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: sequenceOf(failing) }] });
    expect(deletedIds()).toEqual([secretId(1), secretId(2)]);
  });
});

describe("a revoked secret's chunks, deleted later through the consumed-secrets queue", () => {
  const revokedWithChunks = (n: number): DynamoDBRecord =>
    streamRecord('REMOVE', { old: head({ pk: secretId(n), owner: OWNER_A, remaining: 1, chunks: 2 }) });
  const deliveredLater = (body: string) => handler(sqsEvent(sqsRecord(body, 1)), invocationContext());
  const revokedChunksMessage = JSON.stringify({ id: secretId(1), chunks: 2, revokedChunks: true });
  const deletedChunkKeys = (): unknown[] =>
    ddb.commandCalls(BatchWriteCommand).flatMap((call) =>
      Object.values(call.args[0].input.RequestItems ?? {})
        .flat()
        .map((request) => request.DeleteRequest?.Key),
    );

  test('the stream record sends them marked, with the delay a repeat of its create may still need', async () => {
    serveKeys({});
    await fanOut(revokedWithChunks(1));

    const [message, ...others] = sentMessages();
    expect(others).toEqual([]);
    expect(message?.QueueUrl).toBe(WEBHOOK_TEST_ENV.consumedSecretsQueueUrl);
    expect(JSON.parse(message?.MessageBody ?? '')).toEqual({ id: secretId(1), chunks: 2, revokedChunks: true });
    expect(message?.DelaySeconds).toBe(Math.ceil(REVOKED_CHUNKS_DELETION_DELAY_MS / 1000));
  });

  test('with no head back under the id, the chunks are deleted', async () => {
    ddb.on(GetCommand).resolves({}).on(BatchWriteCommand).resolves({});
    const response = await deliveredLater(revokedChunksMessage);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key)).toEqual([{ pk: secretId(1), sk: SECRET_HEAD_SK }]);
    expect(deletedChunkKeys()).toEqual([0, 1].map((index) => secretChunkKey(secretId(1), index)));
    expect(ddb.commandCalls(DeleteCommand)).toEqual([]);
  });

  test("with a head back, even a used-up one kept for its last view's repeat, nothing is deleted", async () => {
    ddb.on(GetCommand).resolves({ Item: { createToken: 'made-again' } });
    const response = await deliveredLater(revokedChunksMessage);

    expect(response).toEqual({ batchItemFailures: [] });
    expect({ deletes: ddb.commandCalls(DeleteCommand).length, chunkDeletes: deletedChunkKeys() }).toEqual({ deletes: 0, chunkDeletes: [] });
  });

  test("a consumed secret's message, unmarked, still deletes its head on its condition, then its chunks", async () => {
    ddb.on(DeleteCommand).resolves({}).on(BatchWriteCommand).resolves({});
    await deliveredLater(JSON.stringify({ id: secretId(2), chunks: 2 }));

    expect(ddb.commandCalls(DeleteCommand).map((call) => resolvedCondition(call.args[0].input).startsWith('remaining = 0'))).toEqual([true]);
    expect(deletedChunkKeys()).toEqual([0, 1].map((index) => secretChunkKey(secretId(2), index)));
  });
});
