import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { IDEMPOTENCY } from '#contract/limits';
import { KEYS_TABLE, KEY_ATTRIBUTES as A, idempotencyRecordPk } from '../definitions/tables';
import type { IdempotencyRecord } from '../rules/idempotency';
import { holds, renderCondition, writtenBy, type Condition } from './condition';
import { DONE_EITHER_WAY, epochSeconds, sendConditional, tableName } from './dynamo';
import { NOT_APPLIED, readForSettling, repeatIt, settledWrite, type Settled } from './settled-write';

/**
 * The records of requests with an Idempotency-Key (rules/idempotency): one small item per scope
 * in the keys table, apart from the key's own item, expiring by TTL. Written only once the key
 * has authenticated the request, with UpdateItem alone (no route may put or delete a keys-table
 * item), and read back only as far as the record (docs/decisions/idempotency.md).
 */

interface RecordItem {
  pk: string;
  idem?: IdempotencyRecord;
}

const RECORD_ATTRIBUTES = [A.pk, A.idempotency] as const;
const AT = `${A.idempotency}.at`;
const BY = `${A.idempotency}.by`;

/** No record stands for a request at `now`: none was written, it was released, or it has lapsed. */
const noneStands = (now: number): Condition => ({
  any: [
    { path: A.idempotency, op: 'absent' },
    { path: AT, op: '<', value: now - IDEMPOTENCY.recordMs },
  ],
});

const updateRecord = (keyHash: string, scope: string, expression: string, condition: Condition, names = {}, values = {}): UpdateCommand =>
  new UpdateCommand({
    TableName: tableName(KEYS_TABLE),
    Key: { pk: idempotencyRecordPk(keyHash, scope) },
    UpdateExpression: expression,
    ...renderCondition(condition, { '#idem': A.idempotency, ...names }, values),
  });

/**
 * Records `record` as its scope's first request unless a record stands there, in one conditional
 * write that also replaces a lapsed one, and answers the record standing after it: this one, or
 * the first's. Of concurrent requests reusing a scope, lapsed or not, exactly one is the first.
 */
export function recordRequest(keyHash: string, scope: string, record: IdempotencyRecord): Promise<IdempotencyRecord> {
  const condition = noneStands(record.at);
  const standing = (item: RecordItem | undefined): Settled<IdempotencyRecord> =>
    item?.idem === undefined || holds(condition, item) ? NOT_APPLIED : item.idem;
  return settledWrite({
    write: (abortSignal) => {
      const command = updateRecord(
        keyHash,
        scope,
        'SET #idem = :record, #ttl = :ttl',
        condition,
        { '#ttl': A.ttl },
        {
          ':record': record,
          ':ttl': epochSeconds(record.at + IDEMPOTENCY.recordMs),
        },
      );
      // The record that stands, as the refusal returns it: the item holds nothing else.
      command.input.ReturnValuesOnConditionCheckFailure = 'ALL_OLD';
      return sendConditional<RecordItem, IdempotencyRecord>(command, abortSignal, {
        applied: () => record,
        refused: (old) => {
          const found = standing(old);
          if (found === NOT_APPLIED) throw new Error('a refused idempotency record write returned no standing record');
          return found;
        },
      });
    },
    settle: async (signal) =>
      standing(await readForSettling<RecordItem>(tableName(KEYS_TABLE), { pk: idempotencyRecordPk(keyHash, scope) }, RECORD_ATTRIBUTES, signal)),
  });
}

/** After an answer that did no work (a 5xx, a 429): the record goes, so that a repeat does the work. Only its writer removes it. */
export async function releaseRecord(keyHash: string, scope: string, token: string): Promise<void> {
  // Removing what is gone changes nothing.
  await settledWrite<void>({
    write: (abortSignal) => sendConditional(updateRecord(keyHash, scope, 'REMOVE #idem', writtenBy(BY, token)), abortSignal, DONE_EITHER_WAY),
    settle: repeatIt,
  });
}

/** Notes on the first's record the answer its repeat could not read from the table (and, with a 403, the attempts it said were left). */
export async function noteAnswer(keyHash: string, scope: string, token: string, status: number, attemptsLeft?: number): Promise<void> {
  const noted = { status, ...(attemptsLeft === undefined ? {} : { attemptsLeft }) };
  const names = Object.fromEntries(Object.keys(noted).map((name) => [`#${name}`, name]));
  const values = Object.fromEntries(Object.entries(noted).map(([name, value]) => [`:${name}`, value]));
  const sets = Object.keys(noted).map((name) => `#idem.#${name} = :${name}`);
  // Setting the same values again changes nothing.
  await settledWrite<void>({
    write: (abortSignal) =>
      sendConditional(updateRecord(keyHash, scope, `SET ${sets.join(', ')}`, writtenBy(BY, token), names, values), abortSignal, DONE_EITHER_WAY),
    settle: repeatIt,
  });
}
