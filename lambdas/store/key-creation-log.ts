import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CREATION_LOG_SETTLING_ATTRIBUTES } from '../definitions/access';
import { KEY_CREATION_LIMIT } from '#contract/limits';
import { KEYS_TABLE, KEY_ATTRIBUTES as A, ipItemPk } from '../definitions/tables';
import { keyCreationWindow, type KeyCreationWindow } from '../rules/key-creation-window';
import { holds, notWrittenBy, renderCondition, type Condition } from './condition';
import { epochSeconds, sendConditional, tableName } from './dynamo';
import { NOT_APPLIED, readForSettling, settledWrite, type Settled } from './settled-write';
import { newWriteToken } from './write-token';

/**
 * The exact sliding log of POST /keys attempts per client address (stored as a hash): a list of
 * ms timestamps appended in one UpdateItem. The list may grow to twice the limit before a
 * second write prunes it, so pruning is rare. Each write records the attempt's token in
 * `logged`, so that a repeat of it (see docs/retried-writes.md) finds the attempt logged and
 * reads the log instead of logging it again, and so that a write whose answer was lost is
 * settled by reading `logged` back (store/settled-write.ts).
 */

interface LogItem {
  log?: number[];
  /** The write token of the attempt logged last. */
  logged?: string;
}

/** The append found the log full: the item as it was, to prune. */
interface Full {
  full: LogItem;
}

/** The log has room for one more: none yet, or fewer than twice the limit (a prune makes room). */
const hasRoom = (limit: number): Condition => ({
  any: [
    { path: A.creationLog, op: 'absent' },
    { sizeOf: A.creationLog, op: '<', value: 2 * limit },
  ],
});

export const recordKeyCreationAttempt = (ipHash: string, now: number, limit: number): Promise<KeyCreationWindow> =>
  recordOnce(ipHash, now, limit, newWriteToken(), 3);

async function recordOnce(ipHash: string, now: number, limit: number, token: string, attempts: number): Promise<KeyCreationWindow> {
  const key = { pk: ipItemPk(ipHash) };
  const ttl = epochSeconds(now + KEY_CREATION_LIMIT.windowMs);
  const names = { '#log': A.creationLog, '#ttl': A.ttl };
  const notLoggedYet = notWrittenBy(A.logged, token);
  /** The window this attempt's own write left, if the item (refused or read back) carries its token. */
  const ownWindow = (item: LogItem | undefined): KeyCreationWindow | undefined =>
    holds(notLoggedYet, item) ? undefined : keyCreationWindow(item?.log ?? [], now, limit);
  const settle = async (signal: AbortSignal | undefined): Promise<Settled<KeyCreationWindow>> =>
    ownWindow(await readForSettling<LogItem>(tableName(KEYS_TABLE), key, CREATION_LOG_SETTLING_ATTRIBUTES, signal)) ?? NOT_APPLIED;

  const appended = await settledWrite<KeyCreationWindow | Full>({
    settle,
    write: (abortSignal) =>
      sendConditional<LogItem, KeyCreationWindow | Full>(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: key,
          UpdateExpression: `SET #log = list_append(if_not_exists(#log, :empty), :now), #ttl = :ttl, ${A.logged} = :token`,
          ...renderCondition({ all: [hasRoom(limit), notLoggedYet] }, names, { ':empty': [], ':now': [now], ':ttl': ttl, ':token': token }),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        {
          applied: (item) => keyCreationWindow(item?.log ?? [], now, limit),
          refused: (old) => ownWindow(old) ?? { full: old ?? {} },
        },
      ),
  });
  if (!('full' in appended)) return appended;
  if (attempts <= 1) throw new Error('the key creation log kept changing under concurrent prunes');

  const oldLog = appended.full.log ?? [];
  const pruned = [...oldLog.filter((at) => at > now - KEY_CREATION_LIMIT.windowMs), now];
  const prunedNow = await settledWrite<KeyCreationWindow | undefined>({
    settle,
    write: (abortSignal) =>
      sendConditional<LogItem, KeyCreationWindow | undefined>(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: key,
          UpdateExpression: `SET #log = :pruned, #ttl = :ttl, ${A.logged} = :token`,
          ...renderCondition({ sizeOf: A.creationLog, op: '=', value: oldLog.length }, names, { ':pruned': pruned, ':ttl': ttl, ':token': token }),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        {
          applied: () => keyCreationWindow(pruned, now, limit),
          // Another prune came first: unless this one's repeat did, start over.
          refused: ownWindow,
        },
      ),
  });
  return prunedNow ?? recordOnce(ipHash, now, limit, token, attempts - 1);
}
