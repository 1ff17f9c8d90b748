import { RATE_LIMIT } from '#contract/limits';

/** The per-key sliding window: slots in a map on the key's item, so that authenticating and counting is one UpdateItem. */

export type SlotCounts = Readonly<Record<string, number>>;

const SLOTS_IN_WINDOW = Math.ceil(RATE_LIMIT.windowMs / RATE_LIMIT.slotMs) + 1;

/** Largest map the fast path adds to: a full window and the slot leaving it, which every update removes. */
export const MAX_TRACKED_SLOTS = SLOTS_IN_WINDOW + 1;

export const slotIndex = (now: number): number => Math.floor(now / RATE_LIMIT.slotMs);

/** The slot that leaves the window as `now`'s slot begins; each update deletes it. */
export const expiredSlotIndex = (now: number): number => slotIndex(now) - SLOTS_IN_WINDOW;

const isInWindow = (slot: number, now: number): boolean => slot > expiredSlotIndex(now);

/** The in-window slots only, for rewriting a map that collected stale slots while the key was idle. */
export function prunedSlots(slots: SlotCounts, now: number): Record<string, number> {
  return Object.fromEntries(Object.entries(slots).filter(([slot]) => isInWindow(Number(slot), now)));
}

export interface WindowState {
  limit: number;
  /** Requests counted in the window, this one included. */
  count: number;
  remaining: number;
  limited: boolean;
  /** Ms timestamp at which the count next drops, at most 60 s ahead (x-ratelimit-reset). */
  resetAt: number;
  /** When limited: the first moment a request will be admitted again (retry-after), maybe past resetAt. */
  retryAt: number;
}

export function windowState(slots: SlotCounts, now: number, limit: number = RATE_LIMIT.requests): WindowState {
  const live = Object.entries(prunedSlots(slots, now))
    .map(([slot, count]) => ({ slot: Number(slot), count }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => a.slot - b.slot);
  const count = live.reduce((sum, entry) => sum + entry.count, 0);
  const limited = count > limit;
  const leavesWindowAt = (slot: number): number => (slot + SLOTS_IN_WINDOW) * RATE_LIMIT.slotMs;

  // Oldest first, until enough slots have left the window to get back under the limit.
  let resetAt = leavesWindowAt(slotIndex(now));
  let left = count;
  for (const entry of live) {
    left -= entry.count;
    resetAt = leavesWindowAt(entry.slot);
    if (!limited || left < limit) break;
  }
  const retryAt = Math.max(resetAt, now + 1);
  return {
    limit,
    count,
    remaining: Math.max(0, limit - count),
    limited,
    resetAt: Math.min(retryAt, now + RATE_LIMIT.windowMs),
    retryAt,
  };
}
