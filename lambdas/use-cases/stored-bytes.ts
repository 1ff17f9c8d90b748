import { MIB, STORED_BYTES_LIMIT } from '#contract/limits';
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
 * once and taken back once. They are a quota's writes, not a ledger's: one the store never
 * settles leaves the request as it may be (uncounted by the address, or its refused bytes still
 * counted) rather than fail it, and the request's own writes go on.
 */

/** Runs a write of the quotas' own; a store that never settles it leaves it as it may be. */
async function quietly<T>(write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (isStoreFault(error)) return undefined;
    throw error;
  }
}

export interface StoredBytesQuota {
  storedMiBPerKeyPerDay: number;
  storedMiBPerAddressPerDay: number;
}

/**
 * The key's day after this request's bytes were counted; when limited, they are taken back, and
 * so are a keyed repeat's (`repeat`), which stores nothing and is never limited.
 */
export async function keyBytesWindow(
  keyHash: string,
  slots: ByteSlots,
  now: number,
  bytes: number,
  quota: StoredBytesQuota,
  repeat = false,
): Promise<ByteWindow> {
  const window = byteWindow(slots, now, quota.storedMiBPerKeyPerDay * MIB, bytes);
  if (window.limited || repeat) await quietly(() => uncountKeyBytes(keyHash, now, bytes));
  return repeat ? { ...window, limited: false } : window;
}

/** Counts a large body against its client address; a small one is not counted (no third call within the budget). */
export async function addressBytesWindow(sourceIp: string, now: number, bytes: number, quota: StoredBytesQuota): Promise<ByteWindow | undefined> {
  if (bytes <= STORED_BYTES_LIMIT.addressCountedAbove) return undefined;
  const ipHash = sha256Hex(sourceIp);
  const slots = await quietly(() => countAddressBytes(ipHash, now, bytes));
  if (slots === undefined) return undefined;
  const window = byteWindow(slots, now, quota.storedMiBPerAddressPerDay * MIB, bytes);
  if (window.limited) await quietly(() => uncountAddressBytes(ipHash, now, bytes));
  return window;
}
