import { MIB, STORED_BYTES_LIMIT } from '../definitions/limits';
import { sha256Hex } from '../rules/api-keys';
import { byteWindow, type ByteSlots, type ByteWindow } from '../rules/stored-bytes-window';
import { countAddressBytes, uncountAddressBytes } from '../store/address-bytes';
import { uncountKeyBytes } from '../store/key-store';

/**
 * The daily byte quotas of POST /secrets (definitions/limits.ts STORED_BYTES_LIMIT). The key's
 * bytes are counted in the write that authenticates the request (use-cases/authentication.ts);
 * the address's, for large bodies only, here. A request refused for its bytes takes them back.
 */

export interface StoredBytesQuota {
  perKeyPerDayMiB: number;
  perAddressPerDayMiB: number;
}

/** The key's day after this request's bytes were counted; when limited, they are taken back. */
export async function keyBytesWindow(keyHash: string, slots: ByteSlots, now: number, bytes: number, quota: StoredBytesQuota): Promise<ByteWindow> {
  const window = byteWindow(slots, now, quota.perKeyPerDayMiB * MIB, bytes);
  if (window.limited) await uncountKeyBytes(keyHash, now, bytes);
  return window;
}

/** Counts a large body against its client address; a small one is not counted (no third call within the budget). */
export async function addressBytesWindow(sourceIp: string, now: number, bytes: number, quota: StoredBytesQuota): Promise<ByteWindow | undefined> {
  if (bytes <= STORED_BYTES_LIMIT.addressCountedAbove) return undefined;
  const ipHash = sha256Hex(sourceIp);
  const window = byteWindow(await countAddressBytes(ipHash, now, bytes), now, quota.perAddressPerDayMiB * MIB, bytes);
  if (window.limited) await uncountAddressBytes(ipHash, now, bytes);
  return window;
}
