import '../support/env';
import { BatchGetCommand, DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NOT_CLAIMED_YET, NOT_REVOKED_YET, answerWithHead, claimSecretAs, keyedClaimAttribute, revocationSoFar } from '#lambdas/store/secret-store';
import { secretChunkKey } from '#lambdas/definitions/tables';
import { conditionFailed, mockDocumentClient, resolvedCondition, sentCommands } from '../support/dynamo';
import { TEST_ENV } from '../support/env';

/**
 * The secrets store's side of requests with an Idempotency-Key (rules/idempotency): what a keyed
 * claim answers from the head its update reads back, and the probes that delete nothing. What
 * the conditions do on the real engine is proven in test/integration/idempotency.test.ts.
 */

const ddb = mockDocumentClient();
const now = 1_750_000_000_000;
const id = 'AbCdEfGhIjKlMnOpQrStUv';
const token = 'tokentokentokentokento';
const claim = keyedClaimAttribute(token);

beforeEach(() => ddb.reset());

const head = (overrides: Record<string, unknown> = {}) => ({
  pk: id,
  sk: 'head',
  owner: 'owner-hash',
  type: 'text',
  views: 2,
  remaining: 1,
  created: now - 1_000,
  expires: now + 3_600_000,
  ttl: 0,
  data: 'c2VjcmV0',
  ...overrides,
});

describe('a keyed claim', () => {
  test('takes its view under the derived claim name', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: head({ remaining: 0, [claim]: 0 }) });
    expect(await claimSecretAs(id, now, 'caller-hash', token, true)).toMatchObject({ data: 'c2VjcmV0', remaining: 0 });
    const [update] = sentCommands(ddb);
    expect(update?.input).toMatchObject({ ExpressionAttributeNames: { '#claim': 'claim:key:' + token } });
  });

  test("finding its view taken answers the data and the remaining it took, not the head's", async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(head({ remaining: 0, [claim]: 1 })));
    expect(await claimSecretAs(id, now, 'caller-hash', token, true)).toMatchObject({ data: 'c2VjcmV0', remaining: 1 });
  });

  test('that may not take a view answers NOT_CLAIMED_YET for a live head without its view, and 404 for a used-up one', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(head()));
    expect(await claimSecretAs(id, now, 'caller-hash', token, false)).toBe(NOT_CLAIMED_YET);
    const [update] = sentCommands(ddb);
    // Its condition wants the claim attribute both absent and there: it never holds.
    const names = update?.input.ExpressionAttributeNames as Record<string, string>;
    const claimNames = Object.keys(names).filter((name) => name.startsWith('#c') && names[name] === names['#claim']);
    const condition = String(update?.input.ConditionExpression);
    expect(claimNames.some((name) => condition.includes(`attribute_not_exists(${name})`))).toBe(true);
    expect(claimNames.some((name) => condition.endsWith(`attribute_exists(${name})`))).toBe(true);
    ddb.reset();
    ddb.on(UpdateCommand).rejects(conditionFailed(head({ remaining: 0 })));
    expect(await claimSecretAs(id, now, 'caller-hash', token, false)).toBeUndefined();
  });

  test('of a gated secret that may not take a view counts no wrong proof, and refuses one without a proof as its first did', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(head({ gate: 'the-gate', attempts: 4 })));
    expect(await claimSecretAs(id, now, 'caller-hash', token, false, { gate: 'another-gate' })).toBe(NOT_CLAIMED_YET);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(await claimSecretAs(id, now, 'caller-hash', token, false)).toEqual({ refusal: 'proof-required', attemptsLeft: 4 });
  });

  test('of a gated secret finding its view taken answers it, whatever the gate', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(head({ gate: 'the-gate', attempts: 5, remaining: 0, [claim]: 1 })));
    expect(await claimSecretAs(id, now, 'caller-hash', token, false, { gate: 'the-gate' })).toMatchObject({ data: 'c2VjcmV0', remaining: 1 });
  });

  test('of a chunked secret whose reader signed off already reads the chunks again without signing off', async () => {
    ddb
      .on(UpdateCommand)
      .rejects(conditionFailed(head({ data: undefined, chunks: 1, remaining: 0, readers: 0, [claim]: 0, [`${claim}:read`]: true })));
    ddb.on(BatchGetCommand).resolves({ Responses: { [TEST_ENV.secretsTable]: [{ ...secretChunkKey(id, 0), data: 'Y2h1bms=' }] } });
    expect(await claimSecretAs(id, now, 'caller-hash', token, true)).toMatchObject({ data: 'Y2h1bms=', remaining: 0 });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
  });
});

describe("a keyed create's repeat marking the head it answers with", () => {
  test('while its first may be at work: only a head that is not being undone', async () => {
    ddb.on(UpdateCommand).resolves({});
    expect(await answerWithHead(id, true)).toBe(true);
    expect(sentCommands(ddb)[0]?.input).toMatchObject({
      Key: { pk: id, sk: 'head' },
      UpdateExpression: 'SET repeatAnsweredAt = :now',
    });
    expect(resolvedCondition(sentCommands(ddb)[0]!.input)).toBe('attribute_exists(pk) AND attribute_not_exists(undoneAt)');
    ddb.reset();
    ddb.on(UpdateCommand).rejects(conditionFailed());
    expect(await answerWithHead(id, true)).toBe(false);
  });

  test('once its first is surely over: any head, taking back the undo mark', async () => {
    ddb.on(UpdateCommand).resolves({});
    expect(await answerWithHead(id, false)).toBe(true);
    expect(sentCommands(ddb)[0]?.input).toMatchObject({
      UpdateExpression: 'SET repeatAnsweredAt = :now REMOVE undoneAt',
    });
    expect(resolvedCondition(sentCommands(ddb)[0]!.input)).toBe('attribute_exists(pk)');
  });
});

describe('probes that delete nothing', () => {
  test("revocationSoFar: gone is revoked, a live head of the owner is not yet, another's is 404", async () => {
    ddb.on(DeleteCommand).rejects(conditionFailed());
    expect(await revocationSoFar(id, 'owner-hash', now)).toBe(true);
    ddb.reset();
    ddb.on(DeleteCommand).rejects(conditionFailed(head()));
    expect(await revocationSoFar(id, 'owner-hash', now)).toBe(NOT_REVOKED_YET);
    expect(await revocationSoFar(id, 'someone-else', now)).toBe(false);
  });
});
