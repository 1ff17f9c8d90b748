import '../support/env';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_TRACKED_SLOTS, expiredSlotIndex, slotIndex } from '#lambdas/rules/sliding-window';
import { EXPIRED_KEY_RETENTION_MS, KEY_LIFETIME_MS } from '#contract/limits';
import { authenticateAndCount, deleteKey, putKey, setWebhook } from '#lambdas/store/key-store';
import { conditionFailed, mockDocumentClient, resolvedCondition, sentCommands, throttled } from '../support/dynamo';
import { lostAnswer, throttleUpdatesUnsettled } from '../support/settling-reads';
import { TEST_ENV } from '../support/env';
import { keyItem } from '../support/key-item';

const ddb = mockDocumentClient();
const keyHash = 'ab'.repeat(32);
const pk = `key#${keyHash}`;
/** 2.5 s into a slot. */
const now = 1_750_000_002_500;
const current = slotIndex(now);

beforeEach(() => ddb.reset());

describe('authenticateAndCount', () => {
  test('happy path: exactly one UpdateItem that authenticates and counts', async () => {
    const rl = { [current - 1]: 4, [current]: 3 };
    ddb.on(UpdateCommand).resolves({ Attributes: keyItem(pk, { created: now - 1000, rl }) });

    const result = await authenticateAndCount(keyHash, now);

    expect(result).toEqual({
      outcome: 'authenticated',
      key: { keyHash, created: now - 1000, expires: now - 1000 + KEY_LIFETIME_MS, webhookSecret: expect.any(String) },
      slots: rl,
      byteSlots: {},
    });
    const sent = sentCommands(ddb);
    expect(sent).toHaveLength(1);
    const input = sent[0]!.input;
    expect(sent[0]!.name).toBe('UpdateCommand');
    expect(input).toMatchObject({
      TableName: TEST_ENV.keysTable,
      Key: { pk },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    // Counting, expiry, revocation and a repeat counted once are proven on DynamoDB Local
    // (rate-limit, keys, retried-writes); the slot-map bound is not: it takes an idle key's stale slots.
    // The condition never names `expires`, which the routes' roles may not name (the expiry is
    // checked in the item read back).
    expect(resolvedCondition(input).split(' AND ')).toContain(`size(rl) <= ${MAX_TRACKED_SLOTS}`);
    expect(resolvedCondition(input)).not.toContain('expires');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':token': expect.any(String) });
    // It counts in the current slot and removes the one leaving the window.
    expect(input.ExpressionAttributeNames).toMatchObject({
      '#current': String(current),
      '#expired': String(expiredSlotIndex(now)),
    });
  });

  test('returns the webhook when the key has one', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: keyItem(pk, { webhook: 'https://h.example/', rl: { [current]: 1 } }) });
    const result = await authenticateAndCount(keyHash, now);
    expect(result).toMatchObject({ outcome: 'authenticated', key: { webhook: 'https://h.example/' } });
  });

  test('an expired key read back after its count: expired, nothing else sent', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: keyItem(pk, { expires: now, rl: { [current]: 1 } }) });
    await expect(authenticateAndCount(keyHash, now)).resolves.toEqual({ outcome: 'expired' });
    expect(ddb.calls()).toHaveLength(1);
  });

  test('condition failure without an item: unknown key, nothing else sent', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    await expect(authenticateAndCount(keyHash, now)).resolves.toEqual({ outcome: 'unknown' });
    expect(ddb.calls()).toHaveLength(1);
  });

  test('condition failure with an expired item (as the SDK returns it): expired, nothing else sent', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(keyItem(pk, { expires: now - 1, rl: { [current - 2]: 5 } })));
    await expect(authenticateAndCount(keyHash, now)).resolves.toEqual({ outcome: 'expired' });
    expect(ddb.calls()).toHaveLength(1);
  });

  test('expiry is inclusive: expires === now is expired', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(keyItem(pk, { expires: now })));
    await expect(authenticateAndCount(keyHash, now)).resolves.toEqual({ outcome: 'expired' });
  });

  test('live key with an over-full slot map: a second UpdateItem rewrites rl to the in-window slots plus this request', async () => {
    // 13 stale slots from an earlier burst and 3 in-window ones: 16 > MAX_TRACKED_SLOTS.
    const stale = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [String(current - 40 - i), 9]));
    const inWindow = { [current - 12]: 2, [current - 5]: 7, [current]: 1 };
    const old = keyItem(pk, { rl: { ...stale, ...inWindow } });
    expect(Object.keys(old.rl).length).toBeGreaterThan(MAX_TRACKED_SLOTS);
    const rewritten = { [current - 12]: 2, [current - 5]: 7, [current]: 2 };
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed(old))
      .resolvesOnce({ Attributes: { ...old, rl: rewritten } });

    const result = await authenticateAndCount(keyHash, now);

    const sent = sentCommands(ddb);
    expect(sent.map((command) => command.name)).toEqual(['UpdateCommand', 'UpdateCommand']);
    const prune = sent[1]!.input;
    expect(prune).toMatchObject({ TableName: TEST_ENV.keysTable, Key: { pk } });
    expect(String(prune.UpdateExpression).trim()).toBe('SET rl = :slots, counted = :token');
    expect((prune.ExpressionAttributeValues as Record<string, unknown>)[':slots']).toEqual(rewritten);
    // Optimistic lock: still there and still over-full.
    expect(resolvedCondition(prune)).toBe(`attribute_exists(pk) AND size(rl) > ${MAX_TRACKED_SLOTS}`);
    expect(result).toMatchObject({ outcome: 'authenticated', slots: rewritten });
  });

  test('gives up after a bounded number of attempts when concurrent prunes keep winning', async () => {
    const stale = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [String(current - 40 - i), 1]));
    ddb.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues?: Record<string, unknown> }) => {
      // The fast path returns the over-full old item; a prune's condition (no ALL_OLD) returns none.
      throw ':slots' in (input.ExpressionAttributeValues ?? {}) ? conditionFailed() : conditionFailed(keyItem(pk, { rl: stale }));
    });
    await expect(authenticateAndCount(keyHash, now)).rejects.toThrow();
    expect(ddb.calls().length).toBeLessThanOrEqual(5);
  });

  test('a throttle whose count a settling read does not find: sent once, then StoreUnavailable', async () => {
    throttleUpdatesUnsettled(ddb, keyItem(pk));
    await expect(authenticateAndCount(keyHash, now)).rejects.toMatchObject({ name: 'StoreUnavailable' });
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(['UpdateCommand', 'GetCommand']);
    expect(sentCommands(ddb)[1]!.input).toMatchObject({ ConsistentRead: true });
  });

  test('a count whose answer is lost is never sent again: however the store fails, a request is counted by one write (at most the SDK attempts of it)', async () => {
    let applied = 0;
    ddb.on(UpdateCommand).callsFake(() => {
      applied++;
      throw lostAnswer();
    });
    // Another request counted meanwhile: the settling read cannot tell whether this one's count applied.
    ddb.on(GetCommand).resolves({ Item: keyItem(pk, { counted: 'another-request' }) });
    await expect(authenticateAndCount(keyHash, now)).rejects.toMatchObject({ name: 'StoreUnavailable' });
    expect(applied).toBe(1);
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(['UpdateCommand', 'GetCommand']);
  });

  test('a lost answer whose count a settling read finds: authenticated with the counts as stored, sent once', async () => {
    ddb.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues: Record<string, unknown> }) => {
      ddb.on(GetCommand).resolves({ Item: keyItem(pk, { counted: input.ExpressionAttributeValues[':token'] as string }) });
      throw lostAnswer();
    });
    await expect(authenticateAndCount(keyHash, now)).resolves.toMatchObject({ outcome: 'authenticated' });
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(['UpdateCommand', 'GetCommand']);
  });
});

const tokenOf = (input: { ExpressionAttributeValues?: Record<string, unknown> }): string | undefined =>
  input.ExpressionAttributeValues?.[':token'] as string | undefined;

describe('authenticateAndCount repeated by the SDK after its first attempt applied', () => {
  test('a repeat that finds its own token counted is the request: authenticated with the counts as they are, one call', async () => {
    const rl = { [current]: 3 };
    ddb.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues?: Record<string, unknown> }) => {
      throw conditionFailed(keyItem(pk, { rl, counted: tokenOf(input) }));
    });
    await expect(authenticateAndCount(keyHash, now)).resolves.toMatchObject({ outcome: 'authenticated', slots: rl });
    expect(ddb.calls()).toHaveLength(1);
  });

  test('a repeat of the prune that finds its own token is the prune it repeats', async () => {
    const stale = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [String(current - 40 - i), 1]));
    const pruned = { [current]: 1 };
    ddb.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues?: Record<string, unknown> }) => {
      const values = input.ExpressionAttributeValues ?? {};
      throw ':slots' in values ? conditionFailed(keyItem(pk, { rl: pruned, counted: tokenOf(input) })) : conditionFailed(keyItem(pk, { rl: stale }));
    });
    await expect(authenticateAndCount(keyHash, now)).resolves.toMatchObject({ outcome: 'authenticated', slots: pruned });
    expect(sentCommands(ddb).map((command) => tokenOf(command.input))).toEqual([expect.any(String), tokenOf(sentCommands(ddb)[0]!.input)]);
  });
});

describe('putKey', () => {
  test('writes the hash-keyed item once, never overwriting, with ttl 30 days after expiry, an empty slot map and byte map', async () => {
    ddb.on(PutCommand).resolves({});
    const expires = now + KEY_LIFETIME_MS;
    await putKey({ keyHash, created: now, expires, webhookSecret: 'whsec_x', webhook: 'https://h.example/' });
    const [put, ...rest] = sentCommands(ddb);
    expect(rest).toHaveLength(0);
    expect(put!.input.TableName).toBe(TEST_ENV.keysTable);
    expect(put!.input.Item).toEqual({
      pk,
      created: now,
      expires,
      ttl: Math.ceil((expires + EXPIRED_KEY_RETENTION_MS) / 1000),
      webhookSecret: 'whsec_x',
      webhook: 'https://h.example/',
      rl: {},
      sb: {},
    });
  });

  test('omits webhook when there is none', async () => {
    ddb.on(PutCommand).resolves({});
    await putKey({ keyHash, created: now, expires: now + 1, webhookSecret: 'whsec_x' });
    expect(sentCommands(ddb)[0]!.input.Item).not.toHaveProperty('webhook');
  });
});

describe('setWebhook', () => {
  test('sets the webhook on a key that exists, naming no other attribute', async () => {
    ddb.on(UpdateCommand).resolves({});
    await expect(setWebhook(keyHash, 'https://h.example/')).resolves.toBe(true);
    const input = sentCommands(ddb)[0]!.input;
    expect(input).toMatchObject({
      Key: { pk },
      ExpressionAttributeValues: { ':webhook': 'https://h.example/' },
    });
    expect(resolvedCondition(input)).toBe('attribute_exists(pk)');
  });

  test('removes the webhook when given undefined', async () => {
    ddb.on(UpdateCommand).resolves({});
    await expect(setWebhook(keyHash, undefined)).resolves.toBe(true);
    expect(sentCommands(ddb)[0]!.input).toMatchObject({ Key: { pk } });
    // DynamoDB refuses an empty value map.
    expect(sentCommands(ddb)[0]!.input).not.toHaveProperty('ExpressionAttributeValues');
  });

  test('false when the key is gone', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    await expect(setWebhook(keyHash, 'https://h.example/')).resolves.toBe(false);
  });
});

describe('deleteKey', () => {
  test('deletes the key item if it exists', async () => {
    ddb.on(DeleteCommand).resolves({});
    await expect(deleteKey(keyHash)).resolves.toBe(true);
    const input = sentCommands(ddb)[0]!.input;
    expect(input).toMatchObject({ TableName: TEST_ENV.keysTable, Key: { pk } });
    expect(resolvedCondition(input)).toBe('attribute_exists(pk)');
  });

  test('false when it was already gone; other errors propagate', async () => {
    ddb.on(DeleteCommand).rejectsOnce(conditionFailed()).rejectsOnce(throttled());
    await expect(deleteKey(keyHash)).resolves.toBe(false);
    await expect(deleteKey(keyHash)).rejects.toThrow();
  });

  test('true when a repeat finds it gone: the deletion it repeats', async () => {
    const repeated = conditionFailed();
    repeated.$metadata.attempts = 2;
    ddb.on(DeleteCommand).rejects(repeated);
    await expect(deleteKey(keyHash)).resolves.toBe(true);
  });
});
