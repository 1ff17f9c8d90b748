import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ATTEMPT_ATTRIBUTE_PREFIX, SECRETS_TABLE, SECRET_ATTRIBUTES as A, SECRET_HEAD_SK } from '../definitions/tables';
import { ATTEMPT_SETTLING_ATTRIBUTES } from '../definitions/access';
import { holds, renderCondition, type Condition } from './condition';
import { sendConditional, tableName } from './dynamo';
import { NOT_APPLIED, readForSettling, settledWrite, type Settled } from './settled-write';
import { newWriteToken } from './write-token';

/**
 * Counting a gated secret's wrong proofs. Each is one conditional update, so that concurrent wrong
 * proofs are counted exactly: of N against A attempts left, A are counted and the one that takes
 * the last burns the secret, the rest find it gone.
 *
 * The burn is a head update, not a delete: it sets `remaining` and `attempts` to 0 together, so
 * that from then on no claim or revocation finds a live secret, and its stream record is the one
 * the webhook fan-out turns into `secret.burned` before the stream consumer deletes the secret (as
 * it deletes one whose last view was taken; `readers` is set for a chunked secret nobody read).
 *
 * Each update records `attempt:<its token>` = the attempts it left, so that a repeat of it (the SDK
 * retries a 500 or a dropped connection, and the first attempt may have applied) finds its own
 * count and counts nothing twice; so does a settling read after a lost answer.
 */

interface AttemptsItem {
  remaining: number;
  expires: number;
  attempts?: number;
}

/** The attempts left after this wrong proof (0: it burned the secret); undefined when the secret is gone. */
export async function countWrongProof(id: string, now: number): Promise<number | undefined> {
  const attempt = `${ATTEMPT_ATTRIBUTE_PREFIX}${newWriteToken()}`;
  const countable = attemptsLeft('>', now, attempt);
  const counted = await settledWrite<number | undefined | typeof BURN>({
    write: (abortSignal) =>
      sendConditional<AttemptsItem & Record<string, unknown>, number | undefined | typeof BURN>(
        new UpdateCommand({
          TableName: tableName(SECRETS_TABLE),
          Key: { pk: id, sk: SECRET_HEAD_SK },
          UpdateExpression: `SET ${A.attempts} = ${A.attempts} - :one, #attempt = ${A.attempts} - :one`,
          ...renderCondition(countable, { '#attempt': attempt }, { ':one': 1 }),
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        { applied: (attributes) => (attributes as AttemptsItem).attempts, refused: (old) => outcomeOf(old, attempt, now) },
      ),
    settle: async (signal) => {
      const item = await readAttempts(id, attempt, signal);
      // Not applied while the count's condition still holds: sent again.
      if (item !== undefined && holds(countable, item)) return NOT_APPLIED;
      return outcomeOf(item, attempt, now);
    },
  });
  return counted === BURN ? burn(id, now, attempt) : counted;
}

/**
 * A live head, one a claim, a revocation or a wrong proof's count may act on: a view left, not
 * expired (DynamoDB TTL may lag by days). Clauses, to go into a condition's `all`.
 */
export const liveAt = (now: number): Condition[] => [
  { path: A.remaining, op: '>', value: 0 },
  { path: A.expires, op: '>', value: now },
];

/** A live secret with more than one attempt left (`>`: a count), or exactly one (`=`: the burn), not yet counted by `attempt`. */
const attemptsLeft = (op: '>' | '=', now: number, attempt: string): Condition => ({
  all: [{ path: A.attempts, op, value: 1 }, ...liveAt(now), { path: attempt, op: 'absent' }],
});

/** The count found one attempt left: this wrong proof burns the secret. */
const BURN = Symbol('burn');

/** A count's outcome read from the item its condition failed on: its own count, the last attempt, or nothing left. */
function outcomeOf(item: (AttemptsItem & Record<string, unknown>) | undefined, attempt: string, now: number): number | undefined | typeof BURN {
  const own = item?.[attempt];
  if (typeof own === 'number') return own;
  return holds(attemptsLeft('=', now, attempt), item) ? BURN : undefined;
}

const readAttempts = (id: string, attempt: string, signal: AbortSignal | undefined): Promise<(AttemptsItem & Record<string, unknown>) | undefined> =>
  readForSettling(tableName(SECRETS_TABLE), { pk: id, sk: SECRET_HEAD_SK }, [...ATTEMPT_SETTLING_ATTRIBUTES, attempt], signal);

/** The wrong proof that takes the last attempt: 0, or undefined when another took it first. */
async function burn(id: string, now: number, attempt: string): Promise<number | undefined> {
  const burnable = attemptsLeft('=', now, attempt);
  return settledWrite<number | undefined>({
    write: (abortSignal) =>
      sendConditional<Record<string, unknown>, number | undefined>(
        new UpdateCommand({
          TableName: tableName(SECRETS_TABLE),
          Key: { pk: id, sk: SECRET_HEAD_SK },
          UpdateExpression: `SET ${A.attempts} = :zero, ${A.remaining} = :zero, ${A.burnedAt} = :now, ${A.readers} = if_not_exists(${A.readers}, :zero), #attempt = :zero`,
          ...renderCondition(burnable, { '#attempt': attempt }, { ':zero': 0, ':now': now }),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        { applied: () => 0, refused: (old) => (typeof old?.[attempt] === 'number' ? 0 : undefined) },
      ),
    settle: async (signal): Promise<Settled<number | undefined>> => {
      const item = await readAttempts(id, attempt, signal);
      if (typeof item?.[attempt] === 'number') return 0;
      return item !== undefined && holds(burnable, item) ? NOT_APPLIED : undefined;
    },
  });
}
