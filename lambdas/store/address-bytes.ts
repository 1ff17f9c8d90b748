import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { STORED_BYTES_LIMIT } from '../definitions/limits';
import { ADDRESS_BYTE_SLOT_PREFIX, KEYS_TABLE, KEY_ATTRIBUTES as A, addressBytesPk } from '../definitions/tables';
import { MAX_BYTE_SLOTS, byteSlotIndex, expiredByteSlotIndex, type ByteSlots } from '../rules/stored-bytes-window';
import { dynamo, epochSeconds, isConditionFailure, tableName } from './dynamo';

/**
 * A client address's bytes sent to POST /secrets and POST /requests/{id} in hour slots, each a top-level attribute
 * (`sb:<hour>`) of an item of its own that lives a day past its last write: one UpdateItem adds
 * to the hour whether or not the item exists yet (a map could not be created and added to in one
 * write), and removes the hour leaving the day. Hours skipped while the address was idle stay
 * behind; when more than a day's worth are read back, they are removed in a second write.
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

export async function countAddressBytes(ipHash: string, now: number, bytes: number): Promise<ByteSlots> {
  const key = { pk: addressBytesPk(ipHash) };
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName(KEYS_TABLE),
      Key: key,
      UpdateExpression: 'SET #slot = if_not_exists(#slot, :zero) + :bytes, #ttl = :ttl REMOVE #expired',
      ExpressionAttributeNames: { '#slot': slotName(byteSlotIndex(now)), '#expired': slotName(expiredByteSlotIndex(now)), '#ttl': A.ttl },
      ExpressionAttributeValues: { ':zero': 0, ':bytes': bytes, ':ttl': ttlFor(now) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const slots = slotsOf(Attributes ?? {});
  const stale = Object.keys(slots).filter((slot) => Number(slot) <= expiredByteSlotIndex(now));
  if (Object.keys(slots).length > MAX_BYTE_SLOTS && stale.length > 0) {
    const names = Object.fromEntries(stale.map((slot, i) => [`#stale${i}`, slotName(Number(slot))]));
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(KEYS_TABLE),
        Key: key,
        UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
        ExpressionAttributeNames: names,
      }),
    );
  }
  return slots;
}

/** Takes back the bytes of a request refused for them. */
export async function uncountAddressBytes(ipHash: string, now: number, bytes: number): Promise<void> {
  await dynamo
    .send(
      new UpdateCommand({
        TableName: tableName(KEYS_TABLE),
        Key: { pk: addressBytesPk(ipHash) },
        UpdateExpression: 'SET #slot = #slot - :bytes',
        ConditionExpression: 'attribute_exists(#slot)',
        ExpressionAttributeNames: { '#slot': slotName(byteSlotIndex(now)) },
        ExpressionAttributeValues: { ':bytes': bytes },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}
