import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KEY_CREATION_LIMIT } from '../definitions/limits';
import { KEYS_TABLE, ipItemPk } from '../definitions/tables';
import { dynamo, epochSeconds, isConditionFailure, itemOfConditionFailure, tableName } from './dynamo';

/**
 * The exact sliding log of POST /keys attempts per client address (stored as a hash): a list of
 * ms timestamps appended in one UpdateItem. The list may grow to twice the limit before a
 * second write prunes it, so pruning is rare.
 */

interface LogItem {
  log?: number[];
}

export interface KeyCreationWindow {
  /** Attempts in the last window, this one included. */
  count: number;
  /** When the oldest attempt that matters leaves the window. */
  resetAt: number;
}

export async function recordKeyCreationAttempt(
  ipHash: string,
  now: number,
  limit: number,
  attempts = 3,
): Promise<KeyCreationWindow> {
  const key = { pk: ipItemPk(ipHash) };
  const ttl = epochSeconds(now + KEY_CREATION_LIMIT.windowMs);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(KEYS_TABLE),
        Key: key,
        UpdateExpression: 'SET #log = list_append(if_not_exists(#log, :empty), :now), #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#log) OR size(#log) < :capacity',
        ExpressionAttributeNames: { '#log': 'log', '#ttl': KEYS_TABLE.ttlAttribute },
        ExpressionAttributeValues: { ':empty': [], ':now': [now], ':ttl': ttl, ':capacity': 2 * limit },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return windowOf((Attributes as LogItem).log ?? [], now, limit);
  } catch (error) {
    if (!isConditionFailure(error) || attempts <= 1) throw error;
    const old = itemOfConditionFailure<LogItem>(error)?.log ?? [];
    const pruned = [...old.filter((at) => at > now - KEY_CREATION_LIMIT.windowMs), now];
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: key,
          UpdateExpression: 'SET #log = :pruned, #ttl = :ttl',
          ConditionExpression: 'size(#log) = :oldSize',
          ExpressionAttributeNames: { '#log': 'log', '#ttl': KEYS_TABLE.ttlAttribute },
          ExpressionAttributeValues: { ':pruned': pruned, ':ttl': ttl, ':oldSize': old.length },
        }),
      );
      return windowOf(pruned, now, limit);
    } catch (pruneError) {
      if (!isConditionFailure(pruneError)) throw pruneError;
      return recordKeyCreationAttempt(ipHash, now, limit, attempts - 1);
    }
  }
}

function windowOf(log: readonly number[], now: number, limit: number): KeyCreationWindow {
  const recent = log.filter((at) => at > now - KEY_CREATION_LIMIT.windowMs).sort((a, b) => a - b);
  // A new attempt fits once all but limit - 1 of the recent ones have left the window.
  const oldestThatMustLeave = recent[recent.length - limit];
  return {
    count: recent.length,
    resetAt: oldestThatMustLeave === undefined ? now : oldestThatMustLeave + KEY_CREATION_LIMIT.windowMs,
  };
}
