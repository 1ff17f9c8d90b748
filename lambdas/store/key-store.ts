import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KEY_SETTLING_ATTRIBUTES, NEW_KEY_SETTLING_ATTRIBUTES } from '../definitions/access';
import { REVEAL_ONLY } from '#contract/create-access';
import { EXPIRED_KEY_RETENTION_MS } from '#contract/limits';
import { KEYS_TABLE, KEY_ATTRIBUTES as A, keyItemPk } from '../definitions/tables';
import { MAX_TRACKED_SLOTS, expiredSlotIndex, prunedSlots, slotIndex, type SlotCounts } from '../rules/sliding-window';
import { MAX_BYTE_SLOTS, byteSlotIndex, expiredByteSlotIndex, prunedByteSlots, type ByteSlots } from '../rules/stored-bytes-window';
import { takeBackBytes } from './address-bytes';
import { batchGetAll } from './batches';
import {
  dynamo,
  epochSeconds,
  isConditionFailure,
  isRetriedConditionFailure,
  sendConditional,
  tableName,
  WHETHER_IT_HELD,
  type ConditionalOutcome,
} from './dynamo';
import { holds, notWrittenBy, renderCondition, writtenBy, type Condition } from './condition';
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
const KEY_EXISTS: Condition = { path: A.pk, op: 'exists' };

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
  // The webhook secret is new with this key, and so this put's token: a repeat of it finds it and rewrites the same item.
  const ownKey = writtenBy(A.webhookSecret, key.webhookSecret);
  await settledWrite<void>({
    write: async (abortSignal) => {
      await dynamo.send(
        new PutCommand({ TableName: tableName(KEYS_TABLE), Item: item, ...renderCondition({ any: [{ path: A.pk, op: 'absent' }, ownKey] }) }),
        { abortSignal },
      );
    },
    settle: async (signal) => {
      const stored = await readForSettling<KeyItem>(tableName(KEYS_TABLE), { pk: item.pk }, NEW_KEY_SETTLING_ATTRIBUTES, signal);
      return holds(ownKey, stored) ? undefined : NOT_APPLIED;
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

/** A counting update of the key item in parts, so that the fast path and the slow paths share theirs. */
interface KeyUpdate {
  set: readonly string[];
  remove: readonly string[];
  conditions: readonly Condition[];
  names: Record<string, string>;
  values: Record<string, unknown>;
}

const joined = (...parts: readonly KeyUpdate[]): KeyUpdate => ({
  set: parts.flatMap((part) => part.set),
  remove: parts.flatMap((part) => part.remove),
  conditions: parts.flatMap((part) => part.conditions),
  names: Object.fromEntries(parts.flatMap((part) => Object.entries(part.names))),
  values: Object.fromEntries(parts.flatMap((part) => Object.entries(part.values))),
});

const NOTHING: KeyUpdate = { set: [], remove: [], conditions: [], names: {}, values: {} };

/** Stored bodies (POST /secrets, POST /requests/{id}): the bytes go into the key's hour slot in the same write (rules/stored-bytes-window). */
const byteCounting = (bytes: number, now: number): KeyUpdate =>
  bytes > 0
    ? {
        set: [`${A.storedBytes}.#byteSlot = if_not_exists(${A.storedBytes}.#byteSlot, :zero) + :bytes`],
        remove: [`${A.storedBytes}.#expiredByteSlot`],
        conditions: [{ sizeOf: A.storedBytes, op: '<=', value: MAX_BYTE_SLOTS }],
        names: { '#byteSlot': String(byteSlotIndex(now)), '#expiredByteSlot': String(expiredByteSlotIndex(now)) },
        values: { ':bytes': bytes },
      }
    : NOTHING;

/** A key without the map (minted before it) or with stale hours: the map rewritten, and the lock on its size as read. */
const byteRewrite = (old: KeyItem, bytes: number, now: number): KeyUpdate =>
  bytes > 0
    ? {
        ...NOTHING,
        set: [`${A.storedBytes} = :byteSlots`],
        conditions: [
          old.sb === undefined ? { path: A.storedBytes, op: 'absent' } : { sizeOf: A.storedBytes, op: '=', value: Object.keys(old.sb).length },
        ],
        values: { ':byteSlots': prunedByteSlots(old.sb, now, bytes) },
      }
    : NOTHING;

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

/**
 * The request's own count in its hour's slot, as the fast path and the byte map's rewrite both
 * write it: only while the slot map has room and this request's token is not counted yet.
 */
const requestCount = (now: number, token: string): KeyUpdate => ({
  set: [`${A.rateLimitSlots}.#current = if_not_exists(${A.rateLimitSlots}.#current, :zero) + :one`, `${A.counted} = :token`],
  remove: [`${A.rateLimitSlots}.#expired`],
  conditions: [KEY_EXISTS, { sizeOf: A.rateLimitSlots, op: '<=', value: MAX_TRACKED_SLOTS }, notWrittenBy(A.counted, token)],
  names: { '#current': String(slotIndex(now)), '#expired': String(expiredSlotIndex(now)) },
  values: { ':zero': 0, ':one': 1, ':token': token },
});

/**
 * The slot map rewritten pruned, with this request counted. While the map is over-full every
 * fast-path update fails, so only another prune can have changed it: "still over-full" is an
 * exact optimistic lock.
 */
function prunedCount(old: KeyItem, now: number, token: string): KeyUpdate {
  const slots = prunedSlots(old.rl, now);
  const current = String(slotIndex(now));
  slots[current] = (slots[current] ?? 0) + 1;
  return {
    ...NOTHING,
    set: [`${A.rateLimitSlots} = :slots`, `${A.counted} = :token`],
    conditions: [KEY_EXISTS, { sizeOf: A.rateLimitSlots, op: '>', value: MAX_TRACKED_SLOTS }],
    values: { ':slots': slots, ':token': token },
  };
}

/** Whether the key item (as read or refused) carries this request's count. */
const countedBy = (token: string, item: KeyItem): boolean => !holds(notWrittenBy(A.counted, token), item);

/** One count of this request, sent once (COUNT_SENDS) and settled by its token in the key item. */
const sendCount = <T>(
  keyHash: string,
  now: number,
  token: string,
  update: KeyUpdate,
  outcome: ConditionalOutcome<KeyItem, T>,
): Promise<T | Authentication> =>
  settledWrite<T | Authentication>({
    sends: COUNT_SENDS,
    write: (abortSignal) =>
      sendConditional(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: { pk: keyItemPk(keyHash) },
          UpdateExpression: `SET ${update.set.join(', ')}${update.remove.length > 0 ? ` REMOVE ${update.remove.join(', ')}` : ''}`,
          ...renderCondition({ all: update.conditions }, update.names, update.values),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        outcome,
      ),
    settle: async (signal): Promise<Settled<Authentication>> => {
      const item = await readKeyForSettling(keyHash, signal);
      // No key: the count's condition fails however often it is sent.
      if (!item) return { outcome: 'unknown' };
      return countedBy(token, item) ? authenticated(item, keyHash, now) : NOT_APPLIED;
    },
  });

async function countOnce(keyHash: string, now: number, token: string, attempts: number, bytes: number): Promise<Authentication> {
  const counted = await sendCount<Authentication | OverFull>(keyHash, now, token, joined(requestCount(now, token), byteCounting(bytes, now)), {
    applied: (item) => authenticated(item as KeyItem, keyHash, now),
    refused: (old) => {
      if (!old) return { outcome: 'unknown' };
      if (countedBy(token, old)) return authenticated(old, keyHash, now);
      if (old.expires <= now) return { outcome: 'expired' };
      return { overFull: old };
    },
  });
  if (!('overFull' in counted)) return counted;
  if (attempts <= 1) throw new Error('rate-limit slot map kept changing under concurrent prunes');
  return recount(keyHash, counted.overFull, now, token, attempts - 1, bytes);
}

/**
 * A count refused for a map over-full (or a byte map missing): counts the request with the slot
 * map pruned if it was over-full, as the fast path does if not, and writes the byte map back
 * pruned, locked on the map's size as read (a concurrent request adding to an hour already in it
 * may go uncounted: a quota, not a ledger). Refused by another request's write: starts over.
 */
async function recount(keyHash: string, old: KeyItem, now: number, token: string, attempts: number, bytes: number): Promise<Authentication> {
  const count = Object.keys(old.rl).length <= MAX_TRACKED_SLOTS ? requestCount(now, token) : prunedCount(old, now, token);
  const recounted = await sendCount<Authentication | undefined>(keyHash, now, token, joined(count, byteRewrite(old, bytes, now)), {
    applied: (item) => authenticated(item as KeyItem, keyHash, now),
    refused: (latest) => (latest !== undefined && countedBy(token, latest) ? authenticated(latest, keyHash, now) : undefined),
  });
  return recounted ?? countOnce(keyHash, now, token, attempts, bytes);
}

/** Takes back the bytes of a request refused for its bytes, so that asking again does not push the wait further. */
export const uncountKeyBytes = (keyHash: string, now: number, bytes: number): Promise<void> =>
  takeBackBytes(keyItemPk(keyHash), `${A.storedBytes}.${byteSlotIndex(now)}`, bytes);

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
          ...renderCondition(KEY_EXISTS, {}, webhook ? { ':webhook': webhook } : {}),
        }),
        abortSignal,
        WHETHER_IT_HELD,
      ),
    // The value it sets is its outcome: a key that holds it is set (or may be set again); a key gone was revoked.
    settle: async (signal) => {
      const item = await readKeyForSettling(keyHash, signal);
      if (!holds(KEY_EXISTS, item)) return false;
      return item?.webhook === webhook ? true : NOT_APPLIED;
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
            ...renderCondition(KEY_EXISTS),
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
    settle: async (signal) => (holds(KEY_EXISTS, await readKeyForSettling(keyHash, signal)) ? NOT_APPLIED : true),
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
