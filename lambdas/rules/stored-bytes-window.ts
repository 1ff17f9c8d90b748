import { STORED_BYTES_LIMIT } from '#contract/limits';

/** The sliding day of bytes stored, per key and per address: a map of hour slots on one item. */

export type ByteSlots = Readonly<Record<string, number>>;

const SLOTS_IN_WINDOW = STORED_BYTES_LIMIT.windowMs / STORED_BYTES_LIMIT.slotMs + 1;

/** Largest map the fast path adds to: a full day and the slot leaving it, which every update removes. */
export const MAX_BYTE_SLOTS = SLOTS_IN_WINDOW + 1;

export const byteSlotIndex = (now: number): number => Math.floor(now / STORED_BYTES_LIMIT.slotMs);
export const expiredByteSlotIndex = (now: number): number => byteSlotIndex(now) - SLOTS_IN_WINDOW;

const inWindow = (slot: string, now: number): boolean => Number(slot) > expiredByteSlotIndex(now);

/** The in-window slots, with `bytes` added to now's: the map a prune writes back. */
export function prunedByteSlots(slots: ByteSlots | undefined, now: number, bytes: number): Record<string, number> {
  const kept: Record<string, number> = Object.fromEntries(Object.entries(slots ?? {}).filter(([slot]) => inWindow(slot, now)));
  const current = String(byteSlotIndex(now));
  kept[current] = (kept[current] ?? 0) + bytes;
  return kept;
}

export interface ByteWindow {
  /** Bytes counted in the day, this request's included. */
  bytes: number;
  limited: boolean;
  /** When limited: when enough slots have left the day for this request to fit (retry-after). */
  retryAt: number;
}

export function byteWindow(slots: ByteSlots | undefined, now: number, limit: number, requestBytes: number): ByteWindow {
  const live = Object.entries(slots ?? {})
    .filter(([slot]) => inWindow(slot, now))
    .map(([slot, bytes]) => ({ slot: Number(slot), bytes }))
    .sort((a, b) => a.slot - b.slot);
  const bytes = live.reduce((sum, entry) => sum + entry.bytes, 0);
  const limited = bytes > limit;
  let retryAt = now + 1;
  if (limited) {
    // Without this request's bytes, which it takes back when refused: what must leave for it to fit.
    let left = bytes - requestBytes;
    for (const entry of live) {
      if (left + requestBytes <= limit) break;
      left -= entry.bytes;
      retryAt = (entry.slot + SLOTS_IN_WINDOW) * STORED_BYTES_LIMIT.slotMs;
    }
  }
  return { bytes, limited, retryAt: Math.max(retryAt, now + 1) };
}
