import '../support/env';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { claimDelivery } from '#lambdas/store/delivery-claims';
import { conditionFailed, mockDocumentClient } from '../support/dynamo';
import { lostAnswer } from '../support/settling-reads';

/**
 * A claim whose answer is lost is settled by reading the claim back (settled-write.ts), as every
 * write of ours is: the store-faults run lost such answers, and the event was dropped as if
 * another message held it.
 */

const ddb = mockDocumentClient();
const EVENT = 'evt_abc';
const NOW = 1_750_000_000_000;

beforeEach(() => ddb.reset());

test('the first claim of an event holds it; a copy in another message is refused', async () => {
  ddb.on(PutCommand).resolvesOnce({}).rejects(conditionFailed());
  expect(await claimDelivery(EVENT, 'message-1', NOW)).toBe(true);
  expect(await claimDelivery(EVENT, 'message-2', NOW)).toBe(false);
});

test('a claim whose answer was lost, and which applied, holds the event', async () => {
  ddb.on(PutCommand).rejects(lostAnswer());
  ddb.on(GetCommand).resolves({ Item: { claimedBy: 'message-1' } });
  expect(await claimDelivery(EVENT, 'message-1', NOW)).toBe(true);
  expect(ddb.commandCalls(GetCommand)[0]?.args[0].input.ConsistentRead).toBe(true);
});

test("a claim whose answer was lost finds another message's claim: the copy is dropped", async () => {
  ddb.on(PutCommand).rejects(lostAnswer());
  ddb.on(GetCommand).resolves({ Item: { claimedBy: 'message-2' } });
  expect(await claimDelivery(EVENT, 'message-1', NOW)).toBe(false);
});

test('a claim whose answer was lost and that did not apply is sent again', async () => {
  ddb.on(PutCommand).rejectsOnce(lostAnswer()).resolves({});
  ddb.on(GetCommand).resolves({});
  expect(await claimDelivery(EVENT, 'message-1', NOW)).toBe(true);
  expect(ddb.commandCalls(PutCommand)).toHaveLength(2);
});
