import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { REVEAL_ONLY } from '../definitions/create-access';
import { EXPIRED_KEY_RETENTION_MS } from '../definitions/limits';
import { KEYS_TABLE, KEY_ATTRIBUTES as A, keyItemPk } from '../definitions/tables';
import { MAX_TRACKED_SLOTS, expiredSlotIndex, prunedSlots, slotIndex, type SlotCounts } from '../rules/sliding-window';
import { MAX_BYTE_SLOTS, byteSlotIndex, expiredByteSlotIndex, prunedByteSlots, type ByteSlots } from '../rules/stored-bytes-window';
import { batchGetAll } from './batches';
import { dynamo, epochSeconds, isConditionFailure, isRetriedConditionFailure, itemOfConditionFailure, tableName } from './dynamo';
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
  /** Bytes sent to POST /secrets per hour slot; see rules/stored-bytes-window. Absent on keys minted before it. */
  sb?: ByteSlots;
}

export type Authentication =
  | { outcome: 'authenticated'; key: StoredKey; slots: SlotCounts; byteSlots: ByteSlots }
  | { outcome: 'unknown' }
  | { outcome: 'expired' };

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
  await dynamo.send(
    new PutCommand({
      TableName: tableName(KEYS_TABLE),
      Item: item,
      // The webhook secret is new with this key: a repeat of this put finds it and rewrites the same item.
      ConditionExpression: 'attribute_not_exists(pk) OR webhookSecret = :webhookSecret',
      ExpressionAttributeValues: { ':webhookSecret': key.webhookSecret },
    }),
  );
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

/** POST /secrets: the body's bytes go into the key's hour slot in the same write (rules/stored-bytes-window). */
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
        values: { ':byteSlots': prunedByteSlots(old.sb, now, bytes), ...(old.sb === undefined ? {} : { ':oldByteSlots': Object.keys(old.sb).length }) },
      }
    : { set: '', condition: '', values: {} };

const NOT_COUNTED_YET = `(attribute_not_exists(${A.counted}) OR ${A.counted} <> :token)`;

const authenticated = (item: KeyItem, keyHash: string, now: number): Authentication =>
  item.expires <= now ? { outcome: 'expired' } : { outcome: 'authenticated', key: toStoredKey(item, keyHash), slots: item.rl, byteSlots: item.sb ?? {} };

async function countOnce(keyHash: string, now: number, token: string, attempts: number, bytes: number): Promise<Authentication> {
  const pk = keyItemPk(keyHash);
  const counting = byteCounting(bytes, now);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(KEYS_TABLE),
        Key: { pk },
        UpdateExpression: `SET ${A.rateLimitSlots}.#current = if_not_exists(${A.rateLimitSlots}.#current, :zero) + :one, ${A.counted} = :token${counting.set} REMOVE ${A.rateLimitSlots}.#expired${counting.remove}`,
        ConditionExpression: `${KEY_EXISTS} AND size(${A.rateLimitSlots}) <= :maxSlots AND ${NOT_COUNTED_YET}${counting.condition}`,
        ExpressionAttributeNames: { '#current': String(slotIndex(now)), '#expired': String(expiredSlotIndex(now)), ...counting.names },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':maxSlots': MAX_TRACKED_SLOTS, ':token': token, ...counting.values },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return authenticated(Attributes as KeyItem, keyHash, now);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const old = itemOfConditionFailure<KeyItem>(error);
    if (!old) return { outcome: 'unknown' };
    if (old.counted === token) return authenticated(old, keyHash, now);
    if (old.expires <= now) return { outcome: 'expired' };
    if (attempts <= 1) throw new Error('rate-limit slot map kept changing under concurrent prunes');
    if (Object.keys(old.rl).length <= MAX_TRACKED_SLOTS) return rewriteBytesAndCount(keyHash, old, now, token, attempts - 1, bytes);
    return pruneAndCount(keyHash, old, now, token, attempts - 1, bytes);
  }
}

/**
 * The byte map was missing or over-full, the request slots were not: counts the request as the
 * fast path does and writes the byte map back pruned, locked on the map's size as read (a
 * concurrent request adding to an hour already in it may go uncounted: a quota, not a ledger).
 */
async function rewriteBytesAndCount(keyHash: string, old: KeyItem, now: number, token: string, attempts: number, bytes: number): Promise<Authentication> {
  const rewrite = byteRewrite(old, bytes, now);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(KEYS_TABLE),
        Key: { pk: keyItemPk(keyHash) },
        UpdateExpression: `SET ${A.rateLimitSlots}.#current = if_not_exists(${A.rateLimitSlots}.#current, :zero) + :one, ${A.counted} = :token${rewrite.set} REMOVE ${A.rateLimitSlots}.#expired`,
        ConditionExpression: `${KEY_EXISTS} AND size(${A.rateLimitSlots}) <= :maxSlots AND ${NOT_COUNTED_YET}${rewrite.condition}`,
        ExpressionAttributeNames: { '#current': String(slotIndex(now)), '#expired': String(expiredSlotIndex(now)) },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':maxSlots': MAX_TRACKED_SLOTS, ':token': token, ...rewrite.values },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return authenticated(Attributes as KeyItem, keyHash, now);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = itemOfConditionFailure<KeyItem>(error);
    if (current?.counted === token) return authenticated(current, keyHash, now);
    return countOnce(keyHash, now, token, attempts, bytes);
  }
}

async function pruneAndCount(keyHash: string, old: KeyItem, now: number, token: string, attempts: number, bytes: number): Promise<Authentication> {
  const slots = prunedSlots(old.rl, now);
  const current = String(slotIndex(now));
  slots[current] = (slots[current] ?? 0) + 1;
  const rewrite = byteRewrite(old, bytes, now);
  try {
    const { Attributes } = await dynamo.send(
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
    );
    return authenticated(Attributes as KeyItem, keyHash, now);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = itemOfConditionFailure<KeyItem>(error);
    if (current?.counted === token) return authenticated(current, keyHash, now);
    return countOnce(keyHash, now, token, attempts, bytes);
  }
}

/** Takes back the bytes of a request refused for its bytes, so that asking again does not push the wait further. */
export async function uncountKeyBytes(keyHash: string, now: number, bytes: number): Promise<void> {
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName(KEYS_TABLE),
      Key: { pk: keyItemPk(keyHash) },
      UpdateExpression: `SET ${A.storedBytes}.#byteSlot = ${A.storedBytes}.#byteSlot - :bytes`,
      ConditionExpression: `${KEY_EXISTS} AND attribute_exists(${A.storedBytes}.#byteSlot)`,
      ExpressionAttributeNames: { '#byteSlot': String(byteSlotIndex(now)) },
      ExpressionAttributeValues: { ':bytes': bytes },
    }),
  ).catch((error: unknown) => {
    // Gone (revoked) or pruned meanwhile: nothing left to take back.
    if (!isConditionFailure(error)) throw error;
  });
}

/**
 * Sets the webhook, or removes it when `webhook` is undefined; false if the key is gone. Its
 * repeat sets the same value again. The caller has just authenticated the key, expiry included.
 */
export async function setWebhook(keyHash: string, webhook: string | undefined): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(KEYS_TABLE),
        Key: { pk: keyItemPk(keyHash) },
        UpdateExpression: webhook ? `SET ${A.webhook} = :webhook` : `REMOVE ${A.webhook}`,
        ConditionExpression: KEY_EXISTS,
        ...(webhook ? { ExpressionAttributeValues: { ':webhook': webhook } } : {}),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Deletes the key; false if it was gone already (revoked by a concurrent request). A repeat that
 * finds it gone is the deletion it repeats.
 */
export async function deleteKey(keyHash: string): Promise<boolean> {
  try {
    await dynamo.send(
      new DeleteCommand({
        TableName: tableName(KEYS_TABLE),
        Key: { pk: keyItemPk(keyHash) },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isRetriedConditionFailure(error)) return true;
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

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
