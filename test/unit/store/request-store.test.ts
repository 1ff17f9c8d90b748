import '../support/env';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
