import './support/store-access';
import { KEYS_TABLE, ipItemPk } from '#lambdas/definitions/tables';
import { KEY_CREATION_LIMIT } from '#contract/limits';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, epochSeconds, tableName } from '#lambdas/store/dynamo';
import { recordKeyCreationAttempt } from '#lambdas/store/key-creation-log';

/**
 * The key-creation log keeps every attempt of the last hour in one item, up to twice the limit
 * before a prune. At the highest limit a deployment may set, that item must still fit DynamoDB's
 * 400 KB: checked on the real engine, which enforces the limit.
 */

const LIMIT = KEY_CREATION_LIMIT.maxPerIpPerHour;

/** An address whose log holds `attempts` attempts, all within the last hour, the newest 1 ms ago. */
async function addressWithLog(attempts: number, now: number): Promise<string> {
  const ipHash = randomUrlSafeId(16);
  const log = Array.from({ length: attempts }, (_, i) => now - attempts + i);
  await dynamo.send(
    new PutCommand({
      TableName: tableName(KEYS_TABLE),
      Item: { pk: ipItemPk(ipHash), log, [KEYS_TABLE.ttlAttribute]: epochSeconds(now + KEY_CREATION_LIMIT.windowMs) },
    }),
  );
  return ipHash;
}

async function storedLogLength(ipHash: string): Promise<number> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName(KEYS_TABLE), Key: { pk: ipItemPk(ipHash) }, ConsistentRead: true }));
  return (Item?.log as number[] | undefined)?.length ?? 0;
}

describe(`an address at the highest limit (${LIMIT} an hour)`, () => {
  test('with its log one short of full, the attempt is appended', async () => {
    const now = Date.now();
    const ipHash = await addressWithLog(2 * LIMIT - 1, now);
    await expect(recordKeyCreationAttempt(ipHash, now, LIMIT)).resolves.toMatchObject({ count: 2 * LIMIT });
    expect(await storedLogLength(ipHash)).toBe(2 * LIMIT);
  });

  test('with its log full of this hour’s attempts, the prune keeps them all and still fits the item', async () => {
    const now = Date.now();
    const ipHash = await addressWithLog(2 * LIMIT, now);
    await expect(recordKeyCreationAttempt(ipHash, now, LIMIT)).resolves.toMatchObject({ count: 2 * LIMIT + 1 });
    expect(await storedLogLength(ipHash)).toBe(2 * LIMIT + 1);
  });
});
