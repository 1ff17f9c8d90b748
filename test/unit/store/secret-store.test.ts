import '../support/env';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CLAIMANTS_DONE_MS, CLAIM_RETRY_WINDOW_MS, DATA_CHUNK_BYTES, INLINE_DATA_MAX_BYTES, MAX_CHUNKS_PER_SECRET } from '#contract/limits';
import { dynamo } from '#lambdas/store/dynamo';
import { SECRET_HEAD_SK, SECRET_RECEIPT_SK, secretChunkKey } from '#lambdas/definitions/tables';
import { claimSecret, deleteConsumedSecret, putSecret, revokeSecret, type NewSecret } from '#lambdas/store/secret-store';
import { conditionFailed, invalidRequest, mockDocumentClient, resolvedCondition, sentCommands, throttled } from '../support/dynamo';
import { UNSETTLED_UPDATE_CALLS, lostAnswer, throttleUpdatesUnsettled } from '../support/settling-reads';
import { TEST_ENV } from '../support/env';

const ddb = mockDocumentClient();
const table = TEST_ENV.secretsTable;
const now = 1_750_000_000_000;
const id = 'AbCdEfGhIjKlMnOpQrStUv';

beforeEach(() => ddb.reset());

/** Base64-looking data of `length` characters whose content depends on the position. */
function dataOf(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; out.length < length; i++) out += alphabet[(i * 7 + Math.floor(i / 64)) % 64];
  return out;
}

const secret = (overrides: Partial<NewSecret> = {}): NewSecret => ({
  id,
  owner: 'owner-hash',
  data: 'c2VjcmV0',
  type: 'text',
  views: 2,
  created: now,
  expires: now + 3_600_000,
  ...overrides,
});

/** The base64 text of stored data, whether it went as binary or as text. */
const storedText = (value: unknown): string => (value instanceof Uint8Array ? Buffer.from(value).toString('base64') : (value as string));

type WriteRequest = { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } };
const writeRequests = (input: Record<string, unknown>): WriteRequest[] => (input.RequestItems as Record<string, WriteRequest[]>)[table] ?? [];

describe('putSecret', () => {
  test('small data: exactly one conditional PutItem holding the data inline', async () => {
    ddb.on(PutCommand).resolves({});
    await putSecret(secret({ data: dataOf(INLINE_DATA_MAX_BYTES) }));

    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['PutCommand']);
    expect(sent[0]!.input).toEqual({
      TableName: table,
      Item: {
        pk: id,
        sk: SECRET_HEAD_SK,
        owner: 'owner-hash',
        type: 'text',
        views: 2,
        remaining: 2,
        created: now,
        expires: now + 3_600_000,
        ttl: Math.ceil((now + 3_600_000) / 1000),
        data: Buffer.from(dataOf(INLINE_DATA_MAX_BYTES), 'base64'),
        createToken: expect.any(String),
      },
      ConditionExpression: expect.any(String),
      ExpressionAttributeNames: expect.any(Object),
      ExpressionAttributeValues: expect.any(Object),
    });
    // Its own repeat (the SDK retries a 500 after DynamoDB may have applied the put) goes through.
    const { createToken } = sent[0]!.input.Item as Record<string, unknown>;
    expect(resolvedCondition(sent[0]!.input)).toBe(
      `attribute_not_exists(pk) OR (createToken = "${String(createToken)}" AND attribute_not_exists(repeatAnsweredAt))`,
    );
  });

  test.each([
    ['canonical base64 goes as binary', 'QQ==', true],
    ['base64 whose padding leaves bits set goes as text, so that it comes back as given', 'QR==', false],
    ['so does one padding character', 'QUJ=', false],
  ])('%s', async (_, data, binary) => {
    ddb.on(PutCommand).resolves({});
    await putSecret(secret({ data }));
    const stored = (sentCommands(ddb)[0]!.input.Item as Record<string, unknown>).data;
    expect(stored instanceof Uint8Array).toBe(binary);
    expect(storedText(stored)).toBe(data);
  });

  test('file metadata is stored on the head', async () => {
    ddb.on(PutCommand).resolves({});
    await putSecret(secret({ type: 'file', filename: 'a.pdf', mimetype: 'application/pdf' }));
    expect(sentCommands(ddb)[0]!.input.Item).toMatchObject({ type: 'file', filename: 'a.pdf', mimetype: 'application/pdf' });
  });

  test('large data: chunk items written with BatchWriteItem BEFORE the head, which only counts them', async () => {
    ddb.on(BatchWriteCommand).resolves({}).on(PutCommand).resolves({});
    const data = dataOf(3 * DATA_CHUNK_BYTES + 17);
    await putSecret(secret({ data }));

    const sent = sentCommands(ddb);
    const headIndex = sent.findIndex((c) => c.name === 'PutCommand');
    expect(headIndex).toBe(sent.length - 1);
    const batches = sent.slice(0, headIndex);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((c) => c.name === 'BatchWriteCommand')).toBe(true);

    const chunks = batches.flatMap((c) => writeRequests(c.input)).map((request) => request.PutRequest!.Item);
    expect(chunks.map(({ pk, sk }) => ({ pk, sk }))).toEqual([0, 1, 2, 3].map((i) => secretChunkKey(id, i)));
    // A partition key each, none the head's: one partition would throttle a large write on AWS.
    expect(new Set([id, ...chunks.map((item) => item.pk)]).size).toBe(5);
    const ttl = Math.ceil((now + 3_600_000) / 1000);
    for (const item of chunks) expect(item).toEqual({ pk: expect.any(String), sk: expect.any(String), data: expect.anything(), ttl });
    const texts = chunks.map((item) => storedText(item.data));
    expect(texts.every((text) => text.length <= DATA_CHUNK_BYTES)).toBe(true);
    expect(texts.join('')).toBe(data);
    // Whole base64 quanta go as binary; the last chunk (17 characters, not base64) as text.
    expect(chunks.map((item) => item.data instanceof Uint8Array)).toEqual([true, true, true, false]);

    const head = sent[headIndex]!.input;
    expect(head.Item).toMatchObject({ pk: id, sk: SECRET_HEAD_SK, chunks: 4, ttl });
    expect(head.Item).not.toHaveProperty('data');
  });

  // Refused writes are evaluated on the head: it holds no data above INLINE_DATA_MAX_BYTES.
  test.each([
    [INLINE_DATA_MAX_BYTES + 4, 1],
    [DATA_CHUNK_BYTES, 1],
    [DATA_CHUNK_BYTES + 1, 2],
  ])('data of %i characters goes into %i chunk items, the head holding none', async (length, chunks) => {
    ddb.on(BatchWriteCommand).resolves({}).on(PutCommand).resolves({});
    await putSecret(secret({ data: dataOf(length) }));
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(['BatchWriteCommand', 'PutCommand']);
    expect(sentCommands(ddb)[1]!.input.Item).toMatchObject({ chunks });
    expect(sentCommands(ddb)[1]!.input.Item).not.toHaveProperty('data');
  });

  test('unprocessed chunk items are retried until written, and only then is the head put', async () => {
    const data = dataOf(2 * DATA_CHUNK_BYTES + 5);
    let leftOver: WriteRequest[] = [];
    ddb
      .on(BatchWriteCommand)
      .callsFakeOnce((input: Record<string, unknown>) => {
        leftOver = writeRequests(input).slice(1);
        return { UnprocessedItems: { [table]: leftOver } };
      })
      .resolves({});
    ddb.on(PutCommand).resolves({});

    await putSecret(secret({ data }));

    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['BatchWriteCommand', 'BatchWriteCommand', 'PutCommand']);
    expect(writeRequests(sent[1]!.input)).toEqual(leftOver);
    expect(leftOver).toHaveLength(2);
  });

  test("a head put refused by its own head, which a keyed create's repeat marked meanwhile, is done; by another's, fails", async () => {
    const putToken = () => (sentCommands(ddb).find((c) => c.name === 'PutCommand')?.input.Item as { createToken: string }).createToken;
    ddb
      .on(PutCommand)
      .rejects(conditionFailed())
      .on(GetCommand)
      .callsFake(() => ({ Item: { createToken: putToken() } }));
    await putSecret(secret({ data: dataOf(10) }));
    expect(resolvedCondition(sentCommands(ddb)[0]!.input)).toBe(
      `attribute_not_exists(pk) OR (createToken = "${putToken()}" AND attribute_not_exists(repeatAnsweredAt))`,
    );
    ddb.reset();
    ddb
      .on(PutCommand)
      .rejects(conditionFailed())
      .on(GetCommand)
      .resolves({ Item: { createToken: 'another create' } })
      .on(DeleteCommand)
      .resolves({});
    await expect(putSecret(secret({ data: dataOf(10) }))).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
  });

  /** The undo's put: the create's own head again, marked undone, if still as the create wrote it. */
  const MARK_UNDONE = { ConditionExpression: '#c0 = :c0 AND #c1 = :c1 AND attribute_not_exists(#c2)' };

  /** A chunked create whose head put is throttled on every send, after `undoAnswers` set how its undo's calls answer. */
  async function failedChunkedCreate(undoAnswers: () => void): Promise<void> {
    ddb.on(BatchWriteCommand).resolves({}).on(PutCommand).rejects(throttled());
    undoAnswers();
    await expect(putSecret(secret({ data: dataOf(2 * DATA_CHUNK_BYTES + 1) }))).rejects.toMatchObject({ name: 'StoreUnavailable' });
  }

  test('a failed head put marks its head undone and deletes it if it is its own (an attempt may have applied), then the chunks, and rethrows', async () => {
    await failedChunkedCreate(() => ddb.on(PutCommand, MARK_UNDONE).resolves({}).on(DeleteCommand).resolves({}).on(GetCommand).resolves({}));
    const sent = sentCommands(ddb).filter((c) => c.name !== 'GetCommand');
    expect(sent.map((c) => c.name)).toEqual([
      'BatchWriteCommand',
      'PutCommand',
      'PutCommand',
      'PutCommand',
      'PutCommand',
      'DeleteCommand',
      'BatchWriteCommand',
    ]);
    const written = sent[1]!.input.Item as Record<string, unknown>;
    const { undoneAt, ...marked } = sent[4]!.input.Item as Record<string, unknown>;
    expect({ marked, undoneAt: typeof undoneAt }).toEqual({ marked: written, undoneAt: 'number' });
    const token = String(written.createToken);
    expect(resolvedCondition(sent[4]!.input)).toBe(`createToken = "${token}" AND remaining = 2 AND attribute_not_exists(repeatAnsweredAt)`);
    expect(sent[5]!.input).toMatchObject({ Key: { pk: id, sk: SECRET_HEAD_SK } });
    expect(resolvedCondition(sent[5]!.input)).toBe(
      `attribute_not_exists(pk) OR (createToken = "${token}" AND attribute_not_exists(repeatAnsweredAt))`,
    );
    expect(writeRequests(sent[6]!.input)).toEqual([0, 1, 2].map((i) => ({ DeleteRequest: { Key: secretChunkKey(id, i) } })));
  });

  test("a head that is not as the create wrote it (none, another create's, or viewed) is not marked, and the undo goes on", async () => {
    await failedChunkedCreate(() =>
      ddb.on(PutCommand, MARK_UNDONE).rejects(conditionFailed()).on(DeleteCommand).resolves({}).on(GetCommand).resolves({}),
    );
    const sent = sentCommands(ddb).filter((c) => c.name !== 'GetCommand');
    expect(sent.slice(4).map((c) => c.name)).toEqual(['PutCommand', 'DeleteCommand', 'BatchWriteCommand']);
  });

  test("a head a keyed repeat answered with, or another create's, is not deleted and keeps the chunks under its id", async () => {
    await failedChunkedCreate(() =>
      ddb.on(PutCommand, MARK_UNDONE).rejects(conditionFailed()).on(DeleteCommand).rejects(conditionFailed()).on(GetCommand).resolves({}),
    );
    const refused = sentCommands(ddb).filter((c) => c.name !== 'GetCommand');
    expect(refused.slice(4).map((c) => c.name)).toEqual(['PutCommand', 'DeleteCommand']);
    // The deletion's answer lost, and its settling read finds another create's head.
    ddb.reset();
    await failedChunkedCreate(() =>
      ddb
        .on(DeleteCommand)
        .rejects(throttled())
        .on(GetCommand)
        .resolves({ Item: { createToken: 'another create' } }),
    );
    expect(sentCommands(ddb).some((c) => c.name === 'BatchWriteCommand' && writeRequests(c.input).some((r) => 'DeleteRequest' in r))).toBe(false);
  });

  test('a failed head put whose head cannot be marked undone leaves it whole, with its chunks', async () => {
    await failedChunkedCreate(() => ddb.on(GetCommand).rejects(throttled()));
    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['BatchWriteCommand', 'PutCommand', 'GetCommand', 'PutCommand', 'PutCommand', 'PutCommand']);
    expect(sent.slice(3).every((c) => c.input.ConditionExpression === MARK_UNDONE.ConditionExpression)).toBe(true);
  });

  test('a failed head put whose head cannot be deleted leaves the chunks to that head', async () => {
    await failedChunkedCreate(() =>
      ddb.on(PutCommand, MARK_UNDONE).resolves({}).on(DeleteCommand).rejects(throttled()).on(GetCommand).rejects(throttled()),
    );
    expect(sentCommands(ddb).map((c) => c.name)).toEqual([
      'BatchWriteCommand',
      'PutCommand',
      'GetCommand',
      'PutCommand',
      'DeleteCommand',
      'GetCommand',
    ]);
  });

  test('a failed chunk write never puts the head', async () => {
    ddb.on(BatchWriteCommand).rejects(throttled()).on(PutCommand).resolves({});
    await expect(putSecret(secret({ data: dataOf(DATA_CHUNK_BYTES + 1) }))).rejects.toThrow();
    expect(sentCommands(ddb).some((c) => c.name === 'PutCommand')).toBe(false);
  });
});

const head = (overrides: Record<string, unknown> = {}) => ({
  pk: id,
  sk: SECRET_HEAD_SK,
  owner: 'owner-hash',
  type: 'text',
  views: 3,
  remaining: 2,
  created: now - 1000,
  expires: now + 3_600_000,
  ttl: Math.ceil((now + 3_600_000) / 1000),
  ...overrides,
});

describe('claimSecret', () => {
  test('a view that leaves views: only the conditional UpdateItem, nothing deleted', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: head({ data: 'c2VjcmV0', remaining: 2 }) });

    await expect(claimSecret(id, now, 'caller-hash')).resolves.toEqual({ data: 'c2VjcmV0', type: 'text', remaining: 2 });

    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['UpdateCommand']);
    const input = sent[0]!.input;
    expect(input).toMatchObject({
      TableName: table,
      Key: { pk: id, sk: SECRET_HEAD_SK },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    const claim = (input.ExpressionAttributeNames as Record<string, string>)['#claim'];
    expect(claim).toMatch(/^claim:[\w-]{16}$/);
    // The view's time goes onto the head's `viewed` list for the receipt, in the same update.
    expect(input.ExpressionAttributeValues).toMatchObject({ ':one': 1, ':now': now, ':noViews': [], ':thisView': [now] });
    expect(input.UpdateExpression).toContain('viewed = list_append(if_not_exists(viewed, :noViews), :thisView)');
    // An answer to a request is claimed by its requester's key only; no gate unless the proof is sent.
    expect(resolvedCondition(input)).toBe(
      `remaining > 0 AND expires > ${now} AND attribute_not_exists(${claim}) AND ` +
        `(attribute_not_exists(reader) OR reader = "caller-hash") AND attribute_not_exists(gate)`,
    );
  });

  test('the last view (remaining 0 after the update) is the one UpdateItem too: the stream consumer deletes it', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: head({ data: 'c2VjcmV0', remaining: 0, type: 'file', filename: 'f.bin', mimetype: 'a/b' }) });

    await expect(claimSecret(id, now, 'caller-hash')).resolves.toEqual({
      data: 'c2VjcmV0',
      type: 'file',
      filename: 'f.bin',
      mimetype: 'a/b',
      remaining: 0,
    });
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(['UpdateCommand']);
  });

  test('chunked data is read consistently and reassembled in order, whatever order DynamoDB returns it in', async () => {
    const parts = ['AAAA', 'BBBB', 'CCCC', 'DDDD', 'EEEE'];
    const items = parts.map((data, i) => ({ ...secretChunkKey(id, i), data, ttl: 1 }));
    const shuffled = [3, 0, 4, 2, 1].map((i) => items[i]!);
    ddb
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: head({ chunks: 5, remaining: 1, readers: 1 }) })
      .resolvesOnce({ Attributes: head({ chunks: 5, remaining: 1, readers: 0 }) });
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: shuffled } });

    await expect(claimSecret(id, now, 'caller-hash')).resolves.toEqual({ data: parts.join(''), type: 'text', remaining: 1 });

    const sent = sentCommands(ddb);
    // Views remain: the claim leaves itself as a reader and deletes nothing.
    expect(sent.map((c) => c.name)).toEqual(['UpdateCommand', 'BatchGetCommand', 'UpdateCommand']);
    expect(sent[2]!.input).toMatchObject({
      Key: { pk: id, sk: SECRET_HEAD_SK },
      ExpressionAttributeNames: { '#claim': (sent[0]!.input.ExpressionAttributeNames as Record<string, string>)['#claim'] },
      ExpressionAttributeValues: { ':minusOne': -1 },
    });
    expect(sent[1]!.input).toEqual({
      RequestItems: {
        [table]: { Keys: parts.map((_, i) => secretChunkKey(id, i)), ConsistentRead: true },
      },
    });
  });

  test('chunk keys left unprocessed by BatchGetItem are fetched again', async () => {
    const items = [0, 1, 2].map((i) => ({ ...secretChunkKey(id, i), data: `P${i}==`, ttl: 1 }));
    ddb.on(UpdateCommand).resolves({ Attributes: head({ chunks: 3, remaining: 1 }) });
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [table]: [items[2]!] },
        UnprocessedKeys: { [table]: { Keys: [secretChunkKey(id, 0), secretChunkKey(id, 1)] } },
      })
      .resolvesOnce({ Responses: { [table]: [items[1]!, items[0]!] } });

    await expect(claimSecret(id, now, 'caller-hash')).resolves.toMatchObject({ data: 'P0==P1==P2==' });
    expect(sentCommands(ddb).filter((c) => c.name === 'BatchGetCommand')).toHaveLength(2);
  });

  test('the last view of a chunked secret reads the chunks, signs off as reader and deletes nothing itself', async () => {
    const items = [0, 1].map((i) => ({ ...secretChunkKey(id, i), data: `Q${i}==`, ttl: 1 }));
    ddb.on(UpdateCommand).resolves({ Attributes: head({ chunks: 2, remaining: 0, readers: 1 }) });
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: items } });

    await expect(claimSecret(id, now, 'caller-hash')).resolves.toMatchObject({ data: 'Q0==Q1==', remaining: 0 });
    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['UpdateCommand', 'BatchGetCommand', 'UpdateCommand']);
    expect(sent[2]!.input).toMatchObject({ Key: { pk: id, sk: SECRET_HEAD_SK }, ExpressionAttributeValues: { ':minusOne': -1 } });
  });

  test('condition failure (unknown, claimed out or expired): undefined, nothing else sent', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    await expect(claimSecret(id, now, 'caller-hash')).resolves.toBeUndefined();
    expect(ddb.calls()).toHaveLength(1);
  });

  test('a throttle whose claim a settling read does not find: sent three times, then StoreUnavailable', async () => {
    throttleUpdatesUnsettled(ddb, head({ data: 'x', remaining: 1 }));
    await expect(claimSecret(id, now, 'caller-hash')).rejects.toMatchObject({ name: 'StoreUnavailable' });
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(UNSETTLED_UPDATE_CALLS);
  });

  test('a lost answer whose settling read is lost too: StoreUnavailable, marked as a claim that may have taken its view', async () => {
    ddb.on(UpdateCommand).rejects(lostAnswer()).on(GetCommand).rejects(lostAnswer());
    await expect(claimSecret(id, now, 'caller-hash')).rejects.toMatchObject({ name: 'StoreUnavailable', mayHaveWritten: true });
  });

  test('a chunked view taken whose chunks cannot be read: StoreUnavailable, marked as a view taken', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: head({ chunks: 2, remaining: 0, readers: 1 }) });
    ddb.on(BatchGetCommand).rejects(lostAnswer());
    await expect(claimSecret(id, now, 'caller-hash')).rejects.toMatchObject({ name: 'StoreUnavailable', mayHaveWritten: true });
  });

  test('a lost answer whose claim a settling read finds: the data and the remaining this claim left', async () => {
    ddb.on(UpdateCommand).callsFake((input: Record<string, unknown>) => {
      ddb.on(GetCommand).resolves({ Item: { ...head({ data: 'c2VjcmV0', remaining: 0 }), [claimAttributeOf(input)]: 1 } });
      throw lostAnswer();
    });
    await expect(claimSecret(id, now, 'caller-hash')).resolves.toMatchObject({ data: 'c2VjcmV0', remaining: 1 });
  });
});

/** The claim attribute (`claim:<token>`) a claim's update wrote, read from the command it sent. */
const claimAttributeOf = (input: Record<string, unknown>): string => (input.ExpressionAttributeNames as Record<string, string>)['#claim']!;

describe('claimSecret repeated by the SDK after its first attempt applied', () => {
  test('a repeat that finds its own token is the claim: the data and the remaining it took, from the one call', async () => {
    ddb.on(UpdateCommand).callsFake((input: Record<string, unknown>) => {
      // A later claim has taken another view since: this one still answers its own count.
      throw conditionFailed(head({ data: 'c2VjcmV0', remaining: 0, [claimAttributeOf(input)]: 1, 'claim:someone-else': 0 }));
    });
    await expect(claimSecret(id, now, 'caller-hash')).resolves.toEqual({ data: 'c2VjcmV0', type: 'text', remaining: 1 });
    expect(ddb.calls()).toHaveLength(1);
  });

  test('a chunked repeat reads the chunks and signs off once', async () => {
    const items = [0, 1].map((i) => ({ ...secretChunkKey(id, i), data: `Q${i}==`, ttl: 1 }));
    ddb
      .on(UpdateCommand)
      .callsFakeOnce((input: Record<string, unknown>) => {
        throw conditionFailed(head({ chunks: 2, remaining: 0, readers: 1, [claimAttributeOf(input)]: 0 }));
      })
      .resolves({});
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: items } });

    await expect(claimSecret(id, now, 'caller-hash')).resolves.toMatchObject({ data: 'Q0==Q1==', remaining: 0 });
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(['UpdateCommand', 'BatchGetCommand', 'UpdateCommand']);
  });

  test('a failure that finds only other claims’ tokens is a 404, whatever views they took', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(head({ data: 'c2VjcmV0', remaining: 0, 'claim:someone-else': 0 })));
    await expect(claimSecret(id, now, 'caller-hash')).resolves.toBeUndefined();
  });

  test('the update gives up retrying in time for a settling read within the retry window, counted from the claim itself', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: head({ data: 'c2VjcmV0', remaining: 1 }) });
    const send = jest.spyOn(dynamo, 'send');
    // A request that began long ago: the window is the claim's own.
    await claimSecret(id, Date.now() - 10 * CLAIM_RETRY_WINDOW_MS, 'caller-hash');
    const signal = (send.mock.calls[0]?.[1] as { abortSignal?: AbortSignal } | undefined)?.abortSignal;
    send.mockRestore();
    await new Promise((resolve) => setTimeout(resolve, CLAIM_RETRY_WINDOW_MS / 2));
    expect(signal?.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, CLAIM_RETRY_WINDOW_MS / 2));
    expect(signal?.aborted).toBe(true);
  });
});

describe('a chunked claim signing off as reader', () => {
  test('a repeat of the sign-off finds its claim attribute gone and counts nothing more', async () => {
    const items = [0].map((i) => ({ ...secretChunkKey(id, i), data: 'QQ==', ttl: 1 }));
    ddb
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: head({ chunks: 1, remaining: 0, readers: 1 }) })
      .rejects(conditionFailed());
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: items } });
    await expect(claimSecret(id, now, 'caller-hash')).resolves.toMatchObject({ data: 'QQ==' });
  });
});

describe('revokeSecret', () => {
  test('deletes the head only if the owner matches and the secret is live, and keeps its receipt at once', async () => {
    ddb.on(DeleteCommand).resolves({ Attributes: head({ data: 'x', views: 2, remaining: 1, viewed: [now - 1] }) });
    await expect(revokeSecret(id, 'owner-hash', now)).resolves.toBe(true);

    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['DeleteCommand', 'PutCommand']);
    const input = sent[0]!.input;
    expect(input).toMatchObject({ TableName: table, Key: { pk: id, sk: SECRET_HEAD_SK }, ReturnValues: 'ALL_OLD' });
    expect(resolvedCondition(input)).toBe(`owner = "owner-hash" AND remaining > 0 AND expires > ${now}`);
    expect(sent[1]!.input.Item).toMatchObject({
      pk: id,
      sk: SECRET_RECEIPT_SK,
      owner: 'owner-hash',
      state: 'revoked',
      views: 2,
      remaining: 1,
      viewed: [now - 1],
    });
  });

  test('a refused revocation asks for nothing back: its time cannot tell whether, or how large, a secret is there', async () => {
    ddb.on(DeleteCommand).rejects(conditionFailed());
    await expect(revokeSecret(id, 'someone-else', now)).resolves.toBe(false);
    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['DeleteCommand']);
    expect(sent[0]!.input).not.toHaveProperty('ReturnValuesOnConditionCheckFailure');
  });

  test('deletes the chunks of a chunked secret', async () => {
    ddb
      .on(DeleteCommand)
      .resolves({ Attributes: head({ chunks: 3 }) })
      .on(BatchWriteCommand)
      .resolves({});
    await expect(revokeSecret(id, 'owner-hash', now)).resolves.toBe(true);
    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['DeleteCommand', 'PutCommand', 'BatchWriteCommand']);
    expect(writeRequests(sent[2]!.input)).toEqual([0, 1, 2].map((i) => ({ DeleteRequest: { Key: secretChunkKey(id, i) } })));
  });

  test('the head deleted and the store not answering for the receipt and chunks: still true, the stream consumer keeps and deletes them', async () => {
    ddb
      .on(DeleteCommand)
      .resolves({ Attributes: head({ chunks: 3 }) })
      .on(BatchWriteCommand)
      .rejects(throttled());
    await expect(revokeSecret(id, 'owner-hash', now)).resolves.toBe(true);
    // Sent again as a settled write does, then left.
    expect(sentCommands(ddb).filter((c) => c.name === 'BatchWriteCommand').length).toBeGreaterThan(1);
  });

  test('a chunk delete the store refuses (an answer, not a fault) still fails the revocation', async () => {
    ddb
      .on(DeleteCommand)
      .resolves({ Attributes: head({ chunks: 3 }) })
      .on(BatchWriteCommand)
      .rejects(invalidRequest());
    await expect(revokeSecret(id, 'owner-hash', now)).rejects.toThrow('One or more parameter values were invalid');
  });

  test('a repeat that finds the head gone (a read of its key only) is the revocation it repeats: true, and every chunk it may have had deleted', async () => {
    ddb.on(DeleteCommand).rejects(retriedConditionFailure()).on(GetCommand).resolves({}).on(BatchWriteCommand).resolves({});
    await expect(revokeSecret(id, 'owner-hash', now)).resolves.toBe(true);
    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['DeleteCommand', 'GetCommand', 'BatchWriteCommand']);
    expect(sent[1]!.input.ProjectionExpression).toBeDefined();
    const deleted = writeRequests(sent[2]!.input).map((request) => request.DeleteRequest?.Key);
    // A 5 MiB body holds at most this many chunks.
    expect(deleted).toEqual(Array.from({ length: MAX_CHUNKS_PER_SECRET }, (_, i) => secretChunkKey(id, i)));
  });

  test('a repeat that finds the head there (foreign, consumed, expired) is still false', async () => {
    ddb
      .on(DeleteCommand)
      .rejects(retriedConditionFailure())
      .on(GetCommand)
      .resolves({ Item: { pk: id, sk: SECRET_HEAD_SK } });
    await expect(revokeSecret(id, 'owner-hash', now)).resolves.toBe(false);
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(['DeleteCommand', 'GetCommand']);
  });
});

/** A condition failure on the SDK's second attempt: the first ended in an error it retries. */
function retriedConditionFailure(oldItem?: object) {
  const error = conditionFailed(oldItem);
  error.$metadata.attempts = 2;
  return error;
}

describe('deleteConsumedSecret', () => {
  test('deletes the head only once no views remain and a chunked secret has no readers left', async () => {
    ddb.on(DeleteCommand).resolves({});
    await expect(deleteConsumedSecret({ id, chunks: 0 })).resolves.toBe(true);

    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['DeleteCommand']);
    const input = sent[0]!.input;
    expect(input).toMatchObject({ TableName: table, Key: { pk: id, sk: SECRET_HEAD_SK } });
    // The data does not come back: the record told how many chunks there are.
    expect(input.ReturnValues).toBeUndefined();
  });

  test('counts no reader once every claim has surely ended: CLAIMANTS_DONE_MS after the last view', async () => {
    ddb.on(DeleteCommand).resolves({});
    const before = Date.now();
    await deleteConsumedSecret({ id, chunks: 0 });
    const after = Date.now();

    const input = sentCommands(ddb)[0]!.input;
    // A sign-off the store never settled leaves `readers` above 0 for good.
    const claimsEnded = Number(/viewedAt < (\d+)/.exec(resolvedCondition(input))?.[1]);
    expect(resolvedCondition(input)).toBe(`remaining = 0 AND (attribute_not_exists(chunks) OR readers = 0 OR viewedAt < ${claimsEnded})`);
    expect(claimsEnded).toBeGreaterThanOrEqual(before - CLAIMANTS_DONE_MS);
    expect(claimsEnded).toBeLessThanOrEqual(after - CLAIMANTS_DONE_MS);
  });

  test('then deletes a chunked secret’s chunks', async () => {
    ddb.on(DeleteCommand).resolves({}).on(BatchWriteCommand).resolves({});
    await expect(deleteConsumedSecret({ id, chunks: 2 })).resolves.toBe(true);
    const sent = sentCommands(ddb);
    expect(sent.map((c) => c.name)).toEqual(['DeleteCommand', 'BatchWriteCommand']);
    expect(writeRequests(sent[1]!.input)).toEqual([0, 1].map((i) => ({ DeleteRequest: { Key: secretChunkKey(id, i) } })));
  });

  test('a head gone already (deleted by an earlier attempt or delivery of the record) still has its chunks deleted', async () => {
    ddb.on(DeleteCommand).rejects(conditionFailed()).on(BatchWriteCommand).resolves({});
    await expect(deleteConsumedSecret({ id, chunks: 2 })).resolves.toBe(true);
    expect(sentCommands(ddb).map((c) => c.name)).toEqual(['DeleteCommand', 'BatchWriteCommand']);
  });

  test('false, and nothing else sent, for a secret still in use', async () => {
    ddb.on(DeleteCommand).rejects(conditionFailed(head({ chunks: 2, remaining: 0, readers: 1 })));
    await expect(deleteConsumedSecret({ id, chunks: 2 })).resolves.toBe(false);
    expect(ddb.calls()).toHaveLength(1);
    expect(sentCommands(ddb)[0]!.input.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
  });

  test('a throttle whose deletion a settling read does not find: StoreUnavailable, so the stream retries the record', async () => {
    ddb
      .on(DeleteCommand)
      .rejects(throttled())
      .on(GetCommand)
      .resolves({ Item: head({ data: 'x', remaining: 0 }) });
    await expect(deleteConsumedSecret({ id, chunks: 0 })).rejects.toMatchObject({ name: 'StoreUnavailable' });
  });
});
