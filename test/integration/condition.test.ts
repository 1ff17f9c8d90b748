import { randomBytes } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { localDynamoDbClient } from '#local/dynamodb-local';
import { NEVER, holds, notWrittenBy, renderCondition, type Condition } from '#lambdas/store/condition';
import { testEnv } from '#test/support/environment';

/**
 * A condition stated once (store/condition.ts): what `holds` finds on an item is what DynamoDB
 * finds when it evaluates the rendered expression on the same item.
 */

const client = DynamoDBDocumentClient.from(localDynamoDbClient(testEnv('dynamodbEndpoint')));
afterAll(() => client.destroy());

const ITEMS: Record<string, Record<string, unknown> | undefined> = {
  none: undefined,
  bare: {},
  record: { idem: { at: 100, by: 'tok' }, n: 5, s: 'b', flag: true, log: [1, 2, 3], rl: { a: 1, b: 2 } },
  other: { idem: { at: 300, by: 'other' }, n: 0, s: 'a' },
};

const CONDITIONS: Record<string, Condition> = {
  exists: { path: 'n', op: 'exists' },
  absent: { path: 'idem', op: 'absent' },
  nested: { path: 'idem.by', op: '=', value: 'tok' },
  unequal: { path: 's', op: '<>', value: 'a' },
  less: { path: 'idem.at', op: '<', value: 200 },
  atMost: { path: 'n', op: '<=', value: 5 },
  greater: { path: 'n', op: '>', value: 0 },
  atLeast: { path: 's', op: '>=', value: 'b' },
  otherType: { path: 's', op: '=', value: 5 },
  unequalType: { path: 'n', op: '<>', value: '5' },
  boolean: { path: 'flag', op: '=', value: true },
  notWrittenBy: notWrittenBy('idem.by', 'tok'),
  never: NEVER,
  listSize: { sizeOf: 'log', op: '<', value: 4 },
  mapSize: { sizeOf: 'rl', op: '=', value: 2 },
  stringSize: { sizeOf: 's', op: '>=', value: 1 },
  numberSize: { sizeOf: 'n', op: '>', value: 0 },
  missingSize: { sizeOf: 'log', op: '<>', value: 2 },
  anyOf: {
    any: [
      { path: 'idem', op: 'absent' },
      { path: 'idem.at', op: '<', value: 200 },
    ],
  },
  singles: { all: [{ any: [{ path: 'n', op: 'exists' }] }, { all: [{ path: 's', op: '=', value: 'b' }] }] },
  allOf: {
    all: [
      { path: 'n', op: 'exists' },
      {
        any: [
          { path: 's', op: '=', value: 'a' },
          { path: 'flag', op: 'exists' },
        ],
      },
    ],
  },
};

const cases = Object.keys(ITEMS).flatMap((item) => Object.keys(CONDITIONS).map((condition) => [item, condition] as const));

test.each(cases)('on item %s, condition %s: holds() agrees with DynamoDB', async (itemName, conditionName) => {
  const item = ITEMS[itemName];
  const condition = CONDITIONS[conditionName]!;
  const pk = `condition-test#${randomBytes(8).toString('hex')}`;
  if (item) await client.send(new PutCommand({ TableName: testEnv('keysTable'), Item: { pk, ...item } }));
  const applied = await client
    .send(
      new UpdateCommand({
        TableName: testEnv('keysTable'),
        Key: { pk },
        UpdateExpression: 'SET #checked = :checked',
        ...renderCondition(condition, { '#checked': 'checked' }, { ':checked': true }),
      }),
    )
    .then(
      () => true,
      (error: Error) => {
        if (error.name !== 'ConditionalCheckFailedException') throw error;
        return false;
      },
    );
  expect(holds(condition, item)).toBe(applied);
});
