import '../support/env';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KEY_CREATION_LIMIT } from '#contract/limits';
import { recordKeyCreationAttempt } from '#lambdas/store/key-creation-log';
import { conditionFailed, mockDocumentClient, resolvedCondition, sentCommands } from '../support/dynamo';
import { UNSETTLED_UPDATE_CALLS, throttleUpdatesUnsettled } from '../support/settling-reads';
import { TEST_ENV } from '../support/env';

const ddb = mockDocumentClient();
const HOUR = KEY_CREATION_LIMIT.windowMs;
const now = 1_750_000_000_000;
const ipHash = 'cd'.repeat(32);
const limit = 20;

beforeEach(() => ddb.reset());

/** Answers the append as DynamoDB would for an item holding `log` (ALL_NEW: log plus :now). */
function appendTo(log: number[]) {
  ddb.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues?: Record<string, unknown> }) => ({
    Attributes: { pk: `ip#${ipHash}`, log: [...log, ...(input.ExpressionAttributeValues?.[':now'] as number[])] },
  }));
}

describe('recordKeyCreationAttempt', () => {
  test('appends this attempt in one conditional UpdateItem on the ip item', async () => {
    appendTo([]);
    await expect(recordKeyCreationAttempt(ipHash, now, limit)).resolves.toEqual({ count: 1, resetAt: now });

    const sent = sentCommands(ddb);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input).toMatchObject({
      TableName: TEST_ENV.keysTable,
      Key: { pk: `ip#${ipHash}` },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      ExpressionAttributeValues: { ':now': [now], ':ttl': Math.ceil((now + HOUR) / 1000) },
    });
    expect(resolvedCondition(sent[0]!.input)).toContain(`(attribute_not_exists(log) OR size(log) < ${2 * limit}) AND logged <> "`);
  });

  test('a full log (condition failed, old item in wire format) is pruned to the last hour plus this attempt', async () => {
    // 40 attempts over the last 40 hours (one every hour; the item's ttl kept being extended).
    const old = Array.from({ length: 2 * limit }, (_, i) => now - (2 * limit - i) * HOUR + 30 * 60_000);
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed({ pk: `ip#${ipHash}`, log: old, ttl: 1 }))
      .resolvesOnce({});

    const window = await recordKeyCreationAttempt(ipHash, now, limit);

    const recent = old.filter((at) => at > now - HOUR);
    expect(recent).toHaveLength(1);
    expect(window).toEqual({ count: 2, resetAt: now });
    const sent = sentCommands(ddb);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.input).toMatchObject({ Key: { pk: `ip#${ipHash}` }, ExpressionAttributeValues: { ':pruned': [...recent, now] } });
    expect(resolvedCondition(sent[1]!.input)).toBe(`size(log) = ${2 * limit}`);
  });

  test('a prune that loses a race starts over; it gives up after a bounded number of attempts', async () => {
    const old = Array.from({ length: 2 * limit }, (_, i) => now - i);
    ddb.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues?: Record<string, unknown> }) => {
      throw ':pruned' in (input.ExpressionAttributeValues ?? {}) ? conditionFailed() : conditionFailed({ log: old });
    });
    await expect(recordKeyCreationAttempt(ipHash, now, limit)).rejects.toThrow();
    expect(ddb.calls().length).toBeLessThanOrEqual(6);
  });

  test('a repeat of the append that finds its own token logged is the attempt: one entry, one call', async () => {
    const log = [now - 60_000, now];
    ddb.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues?: Record<string, unknown> }) => {
      throw conditionFailed({ pk: `ip#${ipHash}`, log, logged: input.ExpressionAttributeValues?.[':token'] });
    });
    await expect(recordKeyCreationAttempt(ipHash, now, limit)).resolves.toEqual({ count: 2, resetAt: now });
    expect(ddb.calls()).toHaveLength(1);
  });

  test('a repeat of the prune that finds its own token is the prune it repeats, not a new attempt', async () => {
    const old = Array.from({ length: 2 * limit }, (_, i) => now - (2 * limit - i) * HOUR);
    ddb.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues?: Record<string, unknown> }) => {
      const values = input.ExpressionAttributeValues ?? {};
      throw ':pruned' in values ? conditionFailed({ log: values[':pruned'], logged: values[':token'] }) : conditionFailed({ log: old });
    });
    await expect(recordKeyCreationAttempt(ipHash, now, limit)).resolves.toEqual({ count: 1, resetAt: now });
    expect(ddb.calls()).toHaveLength(2);
  });

  test('a throttle whose attempt a settling read does not find logged: sent three times, then StoreUnavailable', async () => {
    throttleUpdatesUnsettled(ddb, { log: [now - 1], logged: 'another' });
    await expect(recordKeyCreationAttempt(ipHash, now, limit)).rejects.toMatchObject({ name: 'StoreUnavailable' });
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(UNSETTLED_UPDATE_CALLS);
  });
});
