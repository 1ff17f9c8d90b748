import '../support/env';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { GATE } from '#contract/limits';
import { SECRET_HEAD_SK } from '#lambdas/definitions/tables';
import { claimSecret, putSecret } from '#lambdas/store/secret-store';
import { conditionFailed, mockDocumentClient, resolvedCondition, sentCommands, throttled } from '../support/dynamo';

/** The passphrase gate in the store: the proof in the claim's condition, and wrong proofs counted. */

const ddb = mockDocumentClient();
const now = 1_750_000_000_000;
const id = 'AbCdEfGhIjKlMnOpQrStUv';
const GATE_VALUE = 'UXOJ9El4kqvBfGFk9av3nYXFBHTqhs94EZH74wCB0FU';
const OTHER_GATE = 'jBz1PqfF1_nw4fCHVo1mHiQinmIxe7jogz-tLL-rNt4';

beforeEach(() => ddb.reset());

const liveHead = (overrides: Record<string, unknown> = {}) => ({
  pk: id,
  sk: SECRET_HEAD_SK,
  owner: 'o',
  type: 'text',
  views: 2,
  remaining: 2,
  created: now - 1000,
  expires: now + 60_000,
  data: 'c2VjcmV0',
  gate: GATE_VALUE,
  attempts: 5,
  ...overrides,
});

const attemptAttributeOf = (input: Record<string, unknown>): string => (input.ExpressionAttributeNames as Record<string, string>)['#attempt']!;

test('a gated create stores the gate and 5 attempts', async () => {
  ddb.on(PutCommand).resolves({});
  await putSecret({ id, owner: 'o', data: 'c2VjcmV0', type: 'text', views: 1, created: now, expires: now + 1000, gate: GATE_VALUE });
  const [put] = sentCommands(ddb);
  expect(put?.input.Item).toMatchObject({ gate: GATE_VALUE, attempts: GATE.attempts });
});

test('the proof is checked by the claim’s one update: the right one costs no other call', async () => {
  ddb.on(UpdateCommand).resolves({ Attributes: liveHead({ remaining: 1 }) });
  await expect(claimSecret(id, now, 'caller-hash', { gate: GATE_VALUE })).resolves.toMatchObject({ data: 'c2VjcmV0', remaining: 1 });
  const [update, ...rest] = sentCommands(ddb);
  expect(rest).toHaveLength(0);
  expect(resolvedCondition(update!.input)).toContain(`(attribute_not_exists(gate) OR gate = "${GATE_VALUE}")`);
});

test('a claim without a proof may only take a view of a secret without a gate', async () => {
  ddb.on(UpdateCommand).resolves({ Attributes: liveHead({ gate: undefined, attempts: undefined }) });
  await claimSecret(id, now, 'caller-hash');
  expect(resolvedCondition(sentCommands(ddb)[0]!.input)).toMatch(/ AND attribute_not_exists\(gate\)$/);
});

test('no proof on a live gated secret: refused with the attempts left, nothing counted', async () => {
  ddb.on(UpdateCommand).rejects(conditionFailed(liveHead({ attempts: 3 })));
  await expect(claimSecret(id, now, 'caller-hash')).resolves.toEqual({ refusal: 'proof-required', attemptsLeft: 3 });
  expect(ddb.calls()).toHaveLength(1);
});

test('a wrong proof is counted by a second, conditional update', async () => {
  ddb
    .on(UpdateCommand)
    .rejectsOnce(conditionFailed(liveHead({ attempts: 4 })))
    .resolves({ Attributes: { attempts: 3 } });
  await expect(claimSecret(id, now, 'caller-hash', { gate: OTHER_GATE })).resolves.toEqual({ refusal: 'wrong-proof', attemptsLeft: 3 });
  const [, count] = sentCommands(ddb);
  expect(count?.input).toMatchObject({ Key: { pk: id, sk: SECRET_HEAD_SK }, ReturnValues: 'UPDATED_NEW' });
  expect(resolvedCondition(count!.input)).toContain(`attempts > 1 AND remaining > 0 AND expires > ${now}`);
});

test('a proof that is no proof at all (undefined digest) counts as wrong', async () => {
  ddb
    .on(UpdateCommand)
    .rejectsOnce(conditionFailed(liveHead()))
    .resolves({ Attributes: { attempts: 4 } });
  await expect(claimSecret(id, now, 'caller-hash', { gate: undefined })).resolves.toEqual({ refusal: 'wrong-proof', attemptsLeft: 4 });
});

test('the wrong proof that finds one attempt left burns the secret: views and attempts to 0 in one update', async () => {
  ddb
    .on(UpdateCommand)
    .rejectsOnce(conditionFailed(liveHead({ attempts: 1 })))
    .rejectsOnce(conditionFailed(liveHead({ attempts: 1 })))
    .resolves({});
  await expect(claimSecret(id, now, 'caller-hash', { gate: OTHER_GATE })).resolves.toEqual({ refusal: 'wrong-proof', attemptsLeft: 0 });
  const burn = sentCommands(ddb)[2]?.input;
  expect(burn?.UpdateExpression).toMatch(/SET attempts = :zero, remaining = :zero, burnedAt = :now, readers = if_not_exists\(readers, :zero\)/);
  expect(resolvedCondition(burn!)).toContain('attempts = 1');
});

test('a wrong proof that finds the secret burned by another: gone', async () => {
  ddb
    .on(UpdateCommand)
    .rejectsOnce(conditionFailed(liveHead({ attempts: 1 })))
    .rejectsOnce(conditionFailed(liveHead({ attempts: 1 })))
    .rejects(conditionFailed(liveHead({ attempts: 0, remaining: 0 })));
  await expect(claimSecret(id, now, 'caller-hash', { gate: OTHER_GATE })).resolves.toBeUndefined();
});

test('the count repeated by the SDK after its first attempt applied counts nothing twice', async () => {
  let count = 0;
  ddb.on(UpdateCommand).callsFake((input: Record<string, unknown>) => {
    count++;
    if (count === 1) throw conditionFailed(liveHead({ attempts: 4 }));
    // The count's repeat: its own attempt attribute is there, holding what it left.
    throw conditionFailed(liveHead({ attempts: 3, [attemptAttributeOf(input)]: 3 }));
  });
  await expect(claimSecret(id, now, 'caller-hash', { gate: OTHER_GATE })).resolves.toEqual({ refusal: 'wrong-proof', attemptsLeft: 3 });
  expect(count).toBe(2);
});

test.each([
  ['used up', { remaining: 0 }],
  ['expired', { expires: now - 1 }],
])('a gated secret %s is gone for every claim, proof or not', async (_, overrides) => {
  ddb.on(UpdateCommand).rejects(conditionFailed(liveHead(overrides)));
  await expect(claimSecret(id, now, 'caller-hash')).resolves.toBeUndefined();
  await expect(claimSecret(id, now, 'caller-hash', { gate: OTHER_GATE })).resolves.toBeUndefined();
  expect(ddb.calls()).toHaveLength(2);
});

test('a count whose answers are lost and that a settling read does not find: sent three times, then StoreUnavailable', async () => {
  ddb.on(UpdateCommand).rejectsOnce(conditionFailed(liveHead())).rejects(throttled()).on(GetCommand).resolves({ Item: liveHead() });
  await expect(claimSecret(id, now, 'caller-hash', { gate: OTHER_GATE })).rejects.toMatchObject({ name: 'StoreUnavailable' });
  expect(ddb.commandCalls(UpdateCommand)).toHaveLength(4);
});

test('a count whose answer is lost and that a settling read finds: the attempts it left', async () => {
  ddb
    .on(UpdateCommand)
    .rejectsOnce(conditionFailed(liveHead()))
    .rejects(throttled())
    .on(GetCommand)
    .callsFake((input: { ExpressionAttributeNames: Record<string, string> }) => {
      const attempt = Object.values(input.ExpressionAttributeNames).find((name) => name.startsWith('attempt:'))!;
      return { Item: { ...liveHead(), attempts: 3, [attempt]: 3 } };
    });
  await expect(claimSecret(id, now, 'caller-hash', { gate: OTHER_GATE })).resolves.toEqual({ refusal: 'wrong-proof', attemptsLeft: 3 });
});
