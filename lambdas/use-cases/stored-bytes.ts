import { MIB, STORED_BYTES_LIMIT } from '../definitions/limits';
import { sha256Hex } from '../rules/api-keys';
import { byteWindow, type ByteSlots, type ByteWindow } from '../rules/stored-bytes-window';
import { countAddressBytes, uncountAddressBytes } from '../store/address-bytes';
import { uncountKeyBytes } from '../store/key-store';
import { isStoreFault } from '../store/settled-write';

/**
 * The daily byte quotas of POST /secrets and POST /requests/{id} (definitions/limits.ts
 * STORED_BYTES_LIMIT). The key's bytes are counted in the write that authenticates the request
 * (use-cases/authentication.ts); the address's, for large bodies only, here. A request refused
 * for its bytes takes them back.
 *
 * Every count and taking back is settled after a lost answer (docs/retried-writes.md): counted
 * once and taken back once. A count the store never settles fails the request (503) before
 * anything is stored; a taking back that is never settled leaves the bytes counted (the quota
 * errs high) and the request is still refused for them.
 */

/** Takes back a refused request's bytes; a store that never answers leaves them counted. */
async function quietly(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!isStoreFault(error)) throw error;
  }
}

export interface StoredBytesQuota {
  perKeyPerDayMiB: number;
  perAddressPerDayMiB: number;
}

/** The key's day after this request's bytes were counted; when limited, they are taken back. */
export async function keyBytesWindow(keyHash: string, slots: ByteSlots, now: number, bytes: number, quota: StoredBytesQuota): Promise<ByteWindow> {
  const window = byteWindow(slots, now, quota.perKeyPerDayMiB * MIB, bytes);
  if (window.limited) await quietly(() => uncountKeyBytes(keyHash, now, bytes));
  return window;
}

/** Counts a large body against its client address; a small one is not counted (no third call within the budget). */
export async function addressBytesWindow(sourceIp: string, now: number, bytes: number, quota: StoredBytesQuota): Promise<ByteWindow | undefined> {
  if (bytes <= STORED_BYTES_LIMIT.addressCountedAbove) return undefined;
  const ipHash = sha256Hex(sourceIp);
  const slots = await countAddressBytes(ipHash, now, bytes);
  const window = byteWindow(slots, now, quota.perAddressPerDayMiB * MIB, bytes);
  if (window.limited) await quietly(() => uncountAddressBytes(ipHash, now, bytes));
  return window;
}
