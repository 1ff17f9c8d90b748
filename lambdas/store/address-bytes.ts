import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { STORED_BYTES_LIMIT } from '#contract/limits';
import { ADDRESS_BYTE_SLOT_PREFIX, KEYS_TABLE, KEY_ATTRIBUTES as A, addressBytesPk } from '../definitions/tables';
import { MAX_BYTE_SLOTS, byteSlotIndex, expiredByteSlotIndex, type ByteSlots } from '../rules/stored-bytes-window';
import { DONE_EITHER_WAY, dynamo, epochSeconds, sendConditional, tableName } from './dynamo';
import { holds, notWrittenBy, renderCondition } from './condition';
import { NOT_APPLIED, readForSettling, repeatIt, settledWrite } from './settled-write';
import { newWriteToken } from './write-token';

/**
 * A client address's bytes sent to POST /secrets and POST /requests/{id} in hour slots, each a
 * top-level attribute (`sb:<hour>`) of an item of its own that lives a day past its last write:
 * one UpdateItem adds to the hour whether or not the item exists yet (a map could not be created
 * and added to in one write), and removes the hour leaving the day. Hours skipped while the
 * address was idle stay behind; when more than a day's worth are read back, they are removed in a
 * second write. The count and the taking back each write the request's token (`counted`,
 * `uncounted`), so that a lost answer is settled (docs/retried-writes.md): counted once, taken
 * back once.
 */

type AddressBytesItem = Record<string, unknown>;

const ttlFor = (now: number): number => epochSeconds(now + STORED_BYTES_LIMIT.windowMs + STORED_BYTES_LIMIT.slotMs);
const slotName = (index: number): string => `${ADDRESS_BYTE_SLOT_PREFIX}${index}`;

/** The item's hour slots, keyed by hour index as the key's map is. */
const slotsOf = (item: AddressBytesItem): ByteSlots =>
  Object.fromEntries(
    Object.entries(item)
      .filter(([name]) => name.startsWith(ADDRESS_BYTE_SLOT_PREFIX))
      .map(([name, bytes]) => [name.slice(ADDRESS_BYTE_SLOT_PREFIX.length), Number(bytes)]),
  );

/**
 * What a settling read of the count needs: its token and the hours of the day it answers with. A
 * read names its attributes (the role may read no others), so the day's hours are named one by one.
 */
const countSettlingAttributes = (now: number): string[] => {
  const hours: string[] = [];
  for (let index = expiredByteSlotIndex(now) + 1; index <= byteSlotIndex(now); index++) hours.push(slotName(index));
  return [A.pk, A.counted, ...hours];
};

const readAddressItem = (ipHash: string, attributes: readonly string[], signal: AbortSignal | undefined) =>
  readForSettling<AddressBytesItem>(tableName(KEYS_TABLE), { pk: addressBytesPk(ipHash) }, attributes, signal);

/**
 * A quota's count, not the request's own write: the most time it and its settling may take, so
 * that a slow store leaves the request's own writes their budget (the route then goes on uncounted).
 */
const COUNT_WITHIN_MS = 3_000;

/** Adds `bytes` to the address's hour; answers the day's slots with them (and, after a lost answer, the day's hours as read). */
async function addToHour(ipHash: string, now: number, bytes: number): Promise<AddressBytesItem> {
  const token = newWriteToken();
  const notCountedYet = notWrittenBy(A.counted, token);
  return settledWrite({
    withinMs: COUNT_WITHIN_MS,
    write: (abortSignal) =>
      sendConditional<AddressBytesItem, AddressBytesItem>(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: { pk: addressBytesPk(ipHash) },
          UpdateExpression: 'SET #slot = if_not_exists(#slot, :zero) + :bytes, #ttl = :ttl, #counted = :token REMOVE #expired',
          ...renderCondition(
            notCountedYet,
            { '#slot': slotName(byteSlotIndex(now)), '#expired': slotName(expiredByteSlotIndex(now)), '#ttl': A.ttl, '#counted': A.counted },
            { ':zero': 0, ':bytes': bytes, ':ttl': ttlFor(now), ':token': token },
          ),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        // Only this request's own repeat fails the condition: the item is its count.
        { applied: (item) => item ?? {}, refused: (old) => old ?? {} },
      ),
    settle: async (signal) => {
      const item = await readAddressItem(ipHash, countSettlingAttributes(now), signal);
      return item === undefined || holds(notCountedYet, item) ? NOT_APPLIED : item;
    },
  });
}

export async function countAddressBytes(ipHash: string, now: number, bytes: number): Promise<ByteSlots> {
  const slots = slotsOf(await addToHour(ipHash, now, bytes));
  const stale = Object.keys(slots).filter((slot) => Number(slot) <= expiredByteSlotIndex(now));
  if (Object.keys(slots).length > MAX_BYTE_SLOTS && stale.length > 0) {
    const names = Object.fromEntries(stale.map((slot, i) => [`#stale${i}`, slotName(Number(slot))]));
    // Removing the same hours again is the same outcome: a lost answer is sent again, unread.
    await settledWrite({
      write: async (abortSignal) => {
        await dynamo.send(
          new UpdateCommand({
            TableName: tableName(KEYS_TABLE),
            Key: { pk: addressBytesPk(ipHash) },
            UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
            ExpressionAttributeNames: names,
          }),
          { abortSignal },
        );
      },
      settle: repeatIt,
    });
  }
  return slots;
}

/** Takes back the bytes of a request refused for them (the hour gone with its item: nothing). */
export const uncountAddressBytes = (ipHash: string, now: number, bytes: number): Promise<void> =>
  takeBackBytes(addressBytesPk(ipHash), slotName(byteSlotIndex(now)), bytes);

/**
 * Takes `bytes` back from the hour slot at `slot` (a path: a key's map entry is `sb.<hour>`) of
 * the keys-table item `pk`, once, whatever is repeated: its token in `uncounted` tells its own repeat.
 */
export async function takeBackBytes(pk: string, slot: string, bytes: number): Promise<void> {
  const token = newWriteToken();
  const notTakenBackYet = notWrittenBy(A.uncounted, token);
  const names = Object.fromEntries(slot.split('.').map((segment, index) => [`#slot${index}`, segment]));
  const slotPath = Object.keys(names).join('.');
  await settledWrite({
    write: (abortSignal) =>
      sendConditional(
        new UpdateCommand({
          TableName: tableName(KEYS_TABLE),
          Key: { pk },
          UpdateExpression: `SET ${slotPath} = ${slotPath} - :bytes, ${A.uncounted} = :token`,
          ...renderCondition({ all: [{ path: slot, op: 'exists' }, notTakenBackYet] }, names, { ':bytes': bytes, ':token': token }),
        }),
        abortSignal,
        // The hour gone (its item expired, its key revoked, or pruned), or this request's own repeat: nothing more to take back.
        DONE_EITHER_WAY,
      ),
    settle: async (signal) =>
      holds(notTakenBackYet, await readForSettling(tableName(KEYS_TABLE), { pk }, [A.pk, A.uncounted], signal)) ? NOT_APPLIED : undefined,
  });
}
