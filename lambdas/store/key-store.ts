import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KEY_SETTLING_ATTRIBUTES, NEW_KEY_SETTLING_ATTRIBUTES } from '../definitions/access';
import { REVEAL_ONLY } from '#contract/create-access';
import { EXPIRED_KEY_RETENTION_MS } from '#contract/limits';
import { KEYS_TABLE, KEY_ATTRIBUTES as A, keyItemPk } from '../definitions/tables';
import { MAX_TRACKED_SLOTS, expiredSlotIndex, prunedSlots, slotIndex, type SlotCounts } from '../rules/sliding-window';
import { MAX_BYTE_SLOTS, byteSlotIndex, expiredByteSlotIndex, prunedByteSlots, type ByteSlots } from '../rules/stored-bytes-window';
import { batchGetAll } from './batches';
import {
  DONE_EITHER_WAY,
  dynamo,
  epochSeconds,
  isConditionFailure,
  isRetriedConditionFailure,
  sendConditional,
  tableName,
  WHETHER_IT_HELD,
  type ConditionalOutcome,
} from './dynamo';
import { NOT_APPLIED, readForSettling, settledWrite, type Settled } from './settled-write';
import { newWriteToken } from './write-token';

/** An API key as stored: never the key itself, only its SHA-256. */
export interface StoredKey {
  keyHash: string;
  created: number;
  expires: number;
  webhookSecret: string;
  webhook?: string;
  /** createAccess=signed-in, minted without a sign-in token: may claim secrets and read or revoke itself only. */
  revealOnly?: true;
  /** Minted with a sign-in token: SHA-256 of its issuer and subject (rules/sign-in-subject.ts). */
  subject?: string;
}

/** The stored item of an API key, as the DocumentClient reads and writes it. */
export interface KeyItem {
  pk: string;
  created: number;
  expires: number;
  ttl: number;
  webhookSecret: string;
  webhook?: string;
  access?: typeof REVEAL_ONLY;
  subject?: string;
  /** Request counts per rate-limit slot; see rules/sliding-window. */
  rl: SlotCounts;
  /** The write token of the request counted last: its repeat finds it and counts nothing. */
  counted?: string;
  /** Bytes sent to POST /secrets and POST /requests/{id} per hour slot; see rules/stored-bytes-window. Absent on keys minted before it. */
  sb?: ByteSlots;
  /** The write token of the request whose bytes were taken back last: its repeat takes nothing more. */
  uncounted?: string;
}

export type Authentication =
  { outcome: 'authenticated'; key: StoredKey; slots: SlotCounts; byteSlots: ByteSlots } | { outcome: 'unknown' } | { outcome: 'expired' };

const toStoredKey = (item: KeyItem, keyHash: string): StoredKey => ({
  keyHash,
  created: item.created,
  expires: item.expires,
  webhookSecret: item.webhookSecret,
  ...(item.webhook ? { webhook: item.webhook } : {}),
  ...(item.access === REVEAL_ONLY ? { revealOnly: true as const } : {}),
  ...(item.subject ? { subject: item.subject } : {}),
});

/**
 * The key exists: revoked keys are deleted. Its updates test no more than that, and the callers
 * test its expiry in the item they read: a write that named `expires`, even in its condition,
 * would need a role that may write it (docs/security.md, least privilege).
 */
const KEY_EXISTS = `attribute_exists(${A.pk})`;

const readKeyForSettling = (keyHash: string, signal: AbortSignal | undefined): Promise<KeyItem | undefined> =>
  readForSettling<KeyItem>(tableName(KEYS_TABLE), { pk: keyItemPk(keyHash) }, KEY_SETTLING_ATTRIBUTES, signal);

export async function putKey(key: StoredKey): Promise<void> {
  const item: KeyItem = {
    pk: keyItemPk(key.keyHash),
    created: key.created,
    expires: key.expires,
    ttl: epochSeconds(key.expires + EXPIRED_KEY_RETENTION_MS),
    webhookSecret: key.webhookSecret,
    ...(key.webhook ? { webhook: key.webhook } : {}),
    ...(key.revealOnly ? { access: REVEAL_ONLY } : {}),
    ...(key.subject ? { subject: key.subject } : {}),
    rl: {},
    sb: {},
  };
  await settledWrite<void>({
    write: async (abortSignal) => {
      await dynamo.send(
        new PutCommand({
          TableName: tableName(KEYS_TABLE),
          Item: item,
          // The webhook secret is new with this key: a repeat of this put finds it and rewrites the same item.
          ConditionExpression: 'attribute_not_exists(pk) OR webhookSecret = :webhookSecret',
          ExpressionAttributeValues: { ':webhookSecret': key.webhookSecret },
        }),
        { abortSignal },
      );
    },
    // The new key's webhook secret is this put's token.
    settle: async (signal) => {
      const stored = await readForSettling<KeyItem>(tableName(KEYS_TABLE), { pk: item.pk }, NEW_KEY_SETTLING_ATTRIBUTES, signal);
      return stored?.webhookSecret === key.webhookSecret ? undefined : NOT_APPLIED;
    },
  });
}

/**
 * Checks the key and counts this request in one conditional UpdateItem; an expired key's request
 * is counted too, and refused. Only when the key's slot
 * map has collected stale slots (after idle periods) is a second write needed to prune it. Each
 * write records the request's token in `counted`, so that a repeat of it (see
 * docs/retried-writes.md) finds the request counted and reads the item instead of counting again.
 */
export const authenticateAndCount = (keyHash: string, now: number, bytes = 0): Promise<Authentication> =>
  countOnce(keyHash, now, newWriteToken(), 3, bytes);

/** Stored bodies (POST /secrets, POST /requests/{id}): the bytes go into the key's hour slot in the same write (rules/stored-bytes-window). */
interface ByteCounting {
  set: string;
  remove: string;
  condition: string;
  names: Record<string, string>;
  values: Record<string, number>;
}

const byteCounting = (bytes: number, now: number): ByteCounting =>
  bytes > 0
    ? {
        set: `, ${A.storedBytes}.#byteSlot = if_not_exists(${A.storedBytes}.#byteSlot, :zero) + :bytes`,
        remove: `, ${A.storedBytes}.#expiredByteSlot`,
        condition: ` AND size(${A.storedBytes}) <= :maxByteSlots`,
        names: { '#byteSlot': String(byteSlotIndex(now)), '#expiredByteSlot': String(expiredByteSlotIndex(now)) },
        values: { ':bytes': bytes, ':maxByteSlots': MAX_BYTE_SLOTS },
      }
    : { set: '', remove: '', condition: '', names: {}, values: {} };

/** A key without the map (minted before it) or with stale hours: the map rewritten, and the lock on its size as read. */
const byteRewrite = (old: KeyItem, bytes: number, now: number) =>
  bytes > 0
    ? {
        set: `, ${A.storedBytes} = :byteSlots`,
        condition: old.sb === undefined ? ` AND attribute_not_exists(${A.storedBytes})` : ` AND size(${A.storedBytes}) = :oldByteSlots`,
        values: {
          ':byteSlots': prunedByteSlots(old.sb, now, bytes),
          ...(old.sb === undefined ? {} : { ':oldByteSlots': Object.keys(old.sb).length }),
        },
      }
    : { set: '', condition: '', values: {} };

const NOT_COUNTED_YET = `(attribute_not_exists(${A.counted}) OR ${A.counted} <> :token)`;

const authenticated = (item: KeyItem, keyHash: string, now: number): Authentication =>
  item.expires <= now
    ? { outcome: 'expired' }
    : { outcome: 'authenticated', key: toStoredKey(item, keyHash), slots: item.rl, byteSlots: item.sb ?? {} };

/** A count that found the slot map over-full: the item as it was, to prune. */
interface OverFull {
  overFull: KeyItem;
}

/**
 * A count is sent once: a repeat after a lost answer would count the request again whenever
 * another request was counted in between (`counted` holds the last one's token only), so a
 * count the settling read cannot confirm answers StoreUnavailable (503) instead. A request is
 * then counted at most SDK_MAX_ATTEMPTS times, the attempts of its one write (docs/api.md).
 */
const COUNT_SENDS = 1;

/** Whether this request's count is in the key item, and so what it answered. */
const settleCount =
  (keyHash: string, now: number, token: string) =>
  async (signal: AbortSignal | undefined): Promise<Settled<Authentication>> => {
    const item = await readKeyForSettling(keyHash, signal);
    // No key: the count's condition fails however often it is sent.
    if (!item) return { outcome: 'unknown' };
    return item.counted === token ? authenticated(item, keyHash, now) : NOT_APPLIED;
  };

/**
 * The request's own count in its hour's slot, as the fast path and the byte map's rewrite both
 * write it: only while the slot map has room and this request's token is not counted yet.
 */
function requestCount(now: number, token: string) {
  return {
    set: `${A.rateLimitSlots}.#current = if_not_exists(${A.rateLimitSlots}.#current, :zero) + :one, ${A.counted} = :token`,
    remove: `${A.rateLimitSlots}.#expired`,
    condition: `${KEY_EXISTS} AND size(${A.rateLimitSlots}) <= :maxSlots AND ${NOT_COUNTED_YET}`,
    names: { '#current': String(slotIndex(now)), '#expired': String(expiredSlotIndex(now)) },
    values: { ':zero': 0, ':one': 1, ':maxSlots': MAX_TRACKED_SLOTS, ':token': token },
  };
}

/** A slow path's count: the key as counted, or undefined (start over) unless the refusal was its own repeat. */
function countedOrStartOver(keyHash: string, now: number, token: string): ConditionalOutcome<KeyItem, Authentication | undefined> {
  return {
    applied: (item) => authenticated(item as KeyItem, keyHash, now),
    refused: (latest) => (latest?.counted === token ? authenticated(latest, keyHash, now) : undefined),
  };
}

async function countOnce(keyHash: string, now: number, token: string, attempts: number, bytes: number): Promise<Authentication> {
  const pk = keyItemPk(keyHash);
  const count = requestCount(now, token);
  const byBytes = byteCounting(bytes, now);
  const counted = await settledWrite<Authentication | OverFull>({
    settle: settleCount(keyHash, now, token),
    sends: COUNT_SENDS,
    write: (abortSignal) =>
      sendConditional(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: { pk },
          UpdateExpression: `SET ${count.set}${byBytes.set} REMOVE ${count.remove}${byBytes.remove}`,
          ConditionExpression: `${count.condition}${byBytes.condition}`,
          ExpressionAttributeNames: { ...count.names, ...byBytes.names },
          ExpressionAttributeValues: { ...count.values, ...byBytes.values },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        {
          applied: (item: KeyItem | undefined) => authenticated(item as KeyItem, keyHash, now),
          refused: (old: KeyItem | undefined) => {
            if (!old) return { outcome: 'unknown' };
            if (old.counted === token) return authenticated(old, keyHash, now);
            if (old.expires <= now) return { outcome: 'expired' };
            return { overFull: old };
          },
        },
      ),
  });
  if (!('overFull' in counted)) return counted;
  if (attempts <= 1) throw new Error('rate-limit slot map kept changing under concurrent prunes');
  if (Object.keys(counted.overFull.rl).length <= MAX_TRACKED_SLOTS)
    return rewriteBytesAndCount(keyHash, counted.overFull, now, token, attempts - 1, bytes);
  return pruneAndCount(keyHash, counted.overFull, now, token, attempts - 1, bytes);
}

/**
 * The byte map was missing or over-full, the request slots were not: counts the request as the
 * fast path does and writes the byte map back pruned, locked on the map's size as read (a
 * concurrent request adding to an hour already in it may go uncounted: a quota, not a ledger).
 */
async function rewriteBytesAndCount(
  keyHash: string,
  old: KeyItem,
  now: number,
  token: string,
  attempts: number,
  bytes: number,
): Promise<Authentication> {
  const count = requestCount(now, token);
  const rewrite = byteRewrite(old, bytes, now);
  const rewritten = await settledWrite<Authentication | undefined>({
    settle: settleCount(keyHash, now, token),
    sends: COUNT_SENDS,
    write: (abortSignal) =>
      sendConditional(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: { pk: keyItemPk(keyHash) },
          UpdateExpression: `SET ${count.set}${rewrite.set} REMOVE ${count.remove}`,
          ConditionExpression: `${count.condition}${rewrite.condition}`,
          ExpressionAttributeNames: count.names,
          ExpressionAttributeValues: { ...count.values, ...rewrite.values },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        countedOrStartOver(keyHash, now, token),
      ),
  });
  return rewritten ?? countOnce(keyHash, now, token, attempts, bytes);
}

async function pruneAndCount(keyHash: string, old: KeyItem, now: number, token: string, attempts: number, bytes: number): Promise<Authentication> {
  const rewrite = byteRewrite(old, bytes, now);
  const slots = prunedSlots(old.rl, now);
  const current = String(slotIndex(now));
  slots[current] = (slots[current] ?? 0) + 1;
  const pruned = await settledWrite<Authentication | undefined>({
    settle: settleCount(keyHash, now, token),
    sends: COUNT_SENDS,
    write: (abortSignal) =>
      sendConditional(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: { pk: keyItemPk(keyHash) },
          UpdateExpression: `SET ${A.rateLimitSlots} = :slots, ${A.counted} = :token${rewrite.set}`,
          // While the map is over-full every fast-path update fails, so only another prune can
          // have changed it: "still over-full" is an exact optimistic lock.
          ConditionExpression: `${KEY_EXISTS} AND size(${A.rateLimitSlots}) > :maxSlots${rewrite.condition}`,
          ExpressionAttributeValues: { ':slots': slots, ':maxSlots': MAX_TRACKED_SLOTS, ':token': token, ...rewrite.values },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        countedOrStartOver(keyHash, now, token),
      ),
  });
  return pruned ?? countOnce(keyHash, now, token, attempts, bytes);
}

/**
 * Takes back the bytes of a request refused for its bytes, so that asking again does not push the
 * wait further; once, whatever is repeated: its token in `uncounted` tells its own repeat.
 */
export async function uncountKeyBytes(keyHash: string, now: number, bytes: number): Promise<void> {
  const token = newWriteToken();
  await settledWrite({
    write: (abortSignal) =>
      sendConditional(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: { pk: keyItemPk(keyHash) },
          UpdateExpression: `SET ${A.storedBytes}.#byteSlot = ${A.storedBytes}.#byteSlot - :bytes, ${A.uncounted} = :token`,
          ConditionExpression: `${KEY_EXISTS} AND attribute_exists(${A.storedBytes}.#byteSlot) AND (attribute_not_exists(${A.uncounted}) OR ${A.uncounted} <> :token)`,
          ExpressionAttributeNames: { '#byteSlot': String(byteSlotIndex(now)) },
          ExpressionAttributeValues: { ':bytes': bytes, ':token': token },
        }),
        abortSignal,
        // Gone (revoked) or pruned meanwhile, or this request's own repeat: nothing more to take back.
        DONE_EITHER_WAY,
      ),
    settle: async (signal) => ((await readKeyForSettling(keyHash, signal))?.uncounted === token ? undefined : NOT_APPLIED),
  });
}

/**
 * Sets the webhook, or removes it when `webhook` is undefined; false if the key is gone. Its
 * repeat sets the same value again. The caller has just authenticated the key, expiry included.
 */
export const setWebhook = (keyHash: string, webhook: string | undefined): Promise<boolean> =>
  settledWrite({
    write: (abortSignal) =>
      sendConditional(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: { pk: keyItemPk(keyHash) },
          UpdateExpression: webhook ? `SET ${A.webhook} = :webhook` : `REMOVE ${A.webhook}`,
          ConditionExpression: KEY_EXISTS,
          ...(webhook ? { ExpressionAttributeValues: { ':webhook': webhook } } : {}),
        }),
        abortSignal,
        WHETHER_IT_HELD,
      ),
    // The value it sets is its outcome: a key that holds it is set (or may be set again); a key gone was revoked.
    settle: async (signal) => {
      const item = await readKeyForSettling(keyHash, signal);
      if (!item) return false;
      return item.webhook === webhook ? true : NOT_APPLIED;
    },
  });

/**
 * Deletes the key; false if it was gone already (revoked by a concurrent request). A repeat that
 * finds it gone is the deletion it repeats, and so is a key found gone after a lost answer: the
 * request authenticated with it a moment before.
 */
export const deleteKey = (keyHash: string): Promise<boolean> =>
  settledWrite({
    write: async (abortSignal) => {
      try {
        await dynamo.send(
          new DeleteCommand({
            TableName: tableName(KEYS_TABLE),
            Key: { pk: keyItemPk(keyHash) },
            ConditionExpression: 'attribute_exists(pk)',
          }),
          { abortSignal },
        );
        return true;
      } catch (error) {
        if (isRetriedConditionFailure(error)) return true;
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    settle: async (signal) => ((await readKeyForSettling(keyHash, signal)) === undefined ? true : NOT_APPLIED),
  });

/** One cheap read that proves the table answers; the item need not exist. */
export async function pingKeysTable(): Promise<void> {
  await dynamo.send(new GetCommand({ TableName: tableName(KEYS_TABLE), Key: { pk: 'health' } }));
}

/** Where a key's webhook events go, and the secret they are signed with. */
export interface WebhookTarget {
  url: string;
  signingSecret: string;
}

/**
 * The key's webhook as stored now, or undefined when it has none or the key is gone (revoked).
 * An expired key keeps its webhook: its secrets may outlive it by up to their ttl.
 */
export async function webhookTarget(keyHash: string): Promise<WebhookTarget | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName(KEYS_TABLE),
      Key: { pk: keyItemPk(keyHash) },
      ProjectionExpression: 'webhook, webhookSecret',
      ConsistentRead: true,
    }),
  );
  const item = Item as Pick<KeyItem, 'webhook' | 'webhookSecret'> | undefined;
  return item?.webhook ? { url: item.webhook, signingSecret: item.webhookSecret } : undefined;
}

/** Which of these keys have a webhook set, in one batched read (of the key hash and URL only). */
export async function keysWithWebhooks(keyHashes: readonly string[]): Promise<Set<string>> {
  if (keyHashes.length === 0) return new Set();
  const byPk = new Map(keyHashes.map((keyHash) => [keyItemPk(keyHash), keyHash]));
  const items = await batchGetAll<Pick<KeyItem, 'pk' | 'webhook'>>(
    tableName(KEYS_TABLE),
    [...byPk.keys()].map((pk) => ({ pk })),
    ['pk', 'webhook'],
  );
  return new Set(items.filter((item) => item.webhook).flatMap((item) => byPk.get(item.pk) ?? []));
}
