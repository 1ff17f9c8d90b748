import '../support/env';
import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { INLINE_DATA_MAX_BYTES } from '#contract/limits';
import { FULFILMENT_SETTLING_ATTRIBUTES } from '#lambdas/definitions/access';
import { fulfilRequest } from '#lambdas/store/request-store';
import { conditionFailed, mockDocumentClient, sentCommands } from '../support/dynamo';

const ddb = mockDocumentClient();
const now = 1_750_000_000_000;
const id = 'AbCdEfGhIjKlMnOpQrStUv';
const answer = { data: 'aGk=', type: 'text' as const };

beforeEach(() => ddb.reset());

describe('a refused fulfilment', () => {
  test('asks for no item back and reads only the attributes that decide: its time cannot tell how large an answer is there', async () => {
    ddb
      .on(UpdateCommand)
      .rejects(conditionFailed())
      .on(GetCommand)
      .resolves({ Item: { pk: id, sk: 'head', requestState: 'fulfilled' } });
    await expect(fulfilRequest(id, answer, now)).resolves.toBe('already-fulfilled');
    const [update, read, ...rest] = sentCommands(ddb);
    expect(rest).toEqual([]);
    expect(update!.input).not.toHaveProperty('ReturnValuesOnConditionCheckFailure');
    expect(update!.input).not.toHaveProperty('ReturnValues');
    expect(Object.values(read!.input.ExpressionAttributeNames as Record<string, string>).sort()).toEqual([...FULFILMENT_SETTLING_ATTRIBUTES].sort());
  });

  test('an unknown id is read alike, and answers not-found', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed()).on(GetCommand).resolves({});
    await expect(fulfilRequest(id, answer, now)).resolves.toBe('not-found');
    expect(sentCommands(ddb).map((command) => command.name)).toEqual(['UpdateCommand', 'GetCommand']);
  });
});

describe('an answer', () => {
  const answerOf = (length: number) => ({ data: 'A'.repeat(length), type: 'text' as const });

  test('of INLINE_DATA_MAX_BYTES characters is one update holding the data', async () => {
    ddb.on(UpdateCommand).resolves({});
    await expect(fulfilRequest(id, answerOf(INLINE_DATA_MAX_BYTES), now)).resolves.toBe('fulfilled');
    const sent = sentCommands(ddb);
    expect(sent.map((command) => command.name)).toEqual(['UpdateCommand']);
    expect(sent[0]!.input.ExpressionAttributeValues).toHaveProperty(':data');
  });

  // A refused answer is evaluated on the request's item: it holds no data above INLINE_DATA_MAX_BYTES.
  test('4 characters longer goes into a chunk item first, the request counting it', async () => {
    ddb.on(BatchWriteCommand).resolves({}).on(UpdateCommand).resolves({});
    await expect(fulfilRequest(id, answerOf(INLINE_DATA_MAX_BYTES + 4), now)).resolves.toBe('fulfilled');
    const sent = sentCommands(ddb);
    expect(sent.map((command) => command.name)).toEqual(['BatchWriteCommand', 'UpdateCommand']);
    expect(sent[1]!.input.ExpressionAttributeValues).toMatchObject({ ':chunks': 1 });
    expect(sent[1]!.input.ExpressionAttributeValues).not.toHaveProperty(':data');
  });
});
