import fc from 'fast-check';
import { MAX_TRACKED_SLOTS, expiredSlotIndex, prunedSlots, slotIndex, windowState, type SlotCounts } from '#lambdas/rules/sliding-window';
import { RATE_LIMIT } from '#contract/limits';

const { requests: LIMIT, windowMs: WINDOW, slotMs: SLOT } = RATE_LIMIT;
/** Some instant in 2025, so that slot indices look like real ones. */
const BASE = 1_750_000_000_000;
const nowArb = fc.integer({ min: BASE, max: BASE + 86_400_000 });

describe('slotIndex', () => {
  test('groups timestamps into 5 s slots', () => {
    expect(slotIndex(BASE)).toBe(BASE / SLOT);
    expect(slotIndex(BASE + SLOT - 1)).toBe(BASE / SLOT);
    expect(slotIndex(BASE + SLOT)).toBe(BASE / SLOT + 1);
  });
});

describe('windowState', () => {
  test('100 counted requests: not limited, remaining 0', () => {
    fc.assert(
      fc.property(nowArb, (now) => {
        const state = windowState({ [slotIndex(now)]: 100 }, now);
        expect(state).toMatchObject({ limit: 100, count: 100, remaining: 0, limited: false });
      }),
    );
  });

  test('101 counted requests: limited', () => {
    const now = BASE + 1234;
    const state = windowState({ [slotIndex(now) - 3]: 60, [slotIndex(now)]: 41 }, now);
    expect(state).toMatchObject({ count: 101, remaining: 0, limited: true });
  });

  test('remaining counts down from 99 after the first request', () => {
    const now = BASE + 777;
    expect(windowState({ [slotIndex(now)]: 1 }, now)).toMatchObject({ count: 1, remaining: 99, limited: false });
    expect(windowState({ [slotIndex(now) - 12]: 30, [slotIndex(now)]: 10 }, now)).toMatchObject({
      count: 40,
      remaining: 60,
    });
  });

  test('counts every request of the last 60 s', () => {
    fc.assert(
      fc.property(nowArb, fc.integer({ min: 0, max: WINDOW }), (now, age) => {
        const slots = { [slotIndex(now - age)]: 7 };
        expect(windowState(slots, now).count).toBe(7);
      }),
    );
  });

  test('ignores slots that lie wholly outside the window (older than 65 s), even large ones', () => {
    fc.assert(
      fc.property(nowArb, fc.integer({ min: WINDOW + SLOT, max: 10 * WINDOW }), (now, age) => {
        const slots = { [slotIndex(now - age)]: 10_000, [slotIndex(now)]: 1 };
        expect(windowState(slots, now)).toMatchObject({ count: 1, limited: false, remaining: 99 });
      }),
    );
    const now = BASE + 2_500;
    expect(windowState({ [expiredSlotIndex(now)]: 500, [expiredSlotIndex(now) + 1]: 5 }, now).count).toBe(5);
  });

  test('resetAt is always in the future and at most 60 s ahead', () => {
    const slotMap = (now: number) =>
      fc.dictionary(fc.integer({ min: slotIndex(now) - 30, max: slotIndex(now) }).map(String), fc.integer({ min: 0, max: 150 }), { maxKeys: 30 });
    fc.assert(
      fc.property(
        nowArb.chain((now) => fc.tuple(fc.constant(now), slotMap(now))),
        ([now, slots]) => {
          const current = String(slotIndex(now));
          const withCurrent: SlotCounts = { ...slots, [current]: (slots[current] ?? 0) + 1 };
          const { resetAt } = windowState(withCurrent, now);
          expect(resetAt).toBeGreaterThan(now);
          expect(resetAt).toBeLessThanOrEqual(now + WINDOW);
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('when not limited, resetAt is when the oldest counted slot leaves the window', () => {
    const now = BASE + 12_345; // 2345 ms into its slot
    const oldest = slotIndex(now) - 4;
    const { resetAt, limited } = windowState({ [oldest]: 3, [slotIndex(now)]: 1 }, now);
    expect(limited).toBe(false);
    // From resetAt on, the oldest slot no longer counts...
    expect(windowState({ [oldest]: 3, [slotIndex(now)]: 1 }, resetAt).count).toBe(1);
    // ...and just before, it still does.
    expect(windowState({ [oldest]: 3, [slotIndex(now)]: 1 }, resetAt - 1).count).toBe(4);
  });
});

describe('prunedSlots', () => {
  test('keeps exactly the slots after expiredSlotIndex(now)', () => {
    fc.assert(
      fc.property(nowArb, fc.uniqueArray(fc.integer({ min: -40, max: 0 }), { maxLength: 40 }), (now, offsets) => {
        const slots = Object.fromEntries(offsets.map((offset) => [String(slotIndex(now) + offset), 1]));
        const kept = Object.keys(prunedSlots(slots, now))
          .map(Number)
          .sort((a, b) => a - b);
        const expected = offsets
          .map((offset) => slotIndex(now) + offset)
          .filter((slot) => slot > expiredSlotIndex(now))
          .sort((a, b) => a - b);
        expect(kept).toEqual(expected);
        expect(kept.length).toBeLessThanOrEqual(MAX_TRACKED_SLOTS);
      }),
    );
  });

  test('does not modify its input', () => {
    const now = BASE;
    const slots = { [slotIndex(now) - 100]: 1, [slotIndex(now)]: 2 };
    const copy = { ...slots };
    prunedSlots(slots, now);
    expect(slots).toEqual(copy);
  });
});

/**
 * The key item's slot map as key-store maintains it, request by request: the fast path
 * (allowed while size(rl) <= MAX_TRACKED_SLOTS) does SET rl[current] += 1 REMOVE rl[expired];
 * an over-full map is rewritten to its in-window slots plus the current one incremented.
 */
function simulate(times: readonly number[]): { admitted: boolean[]; maxMapSize: number } {
  let rl: Record<string, number> = {};
  let maxMapSize = 0;
  const admitted = times.map((now) => {
    const current = String(slotIndex(now));
    if (Object.keys(rl).length <= MAX_TRACKED_SLOTS) {
      rl[current] = (rl[current] ?? 0) + 1;
      delete rl[String(expiredSlotIndex(now))];
    } else {
      rl = prunedSlots(rl, now);
      rl[current] = (rl[current] ?? 0) + 1;
    }
    maxMapSize = Math.max(maxMapSize, Object.keys(rl).length);
    return !windowState(rl, now).limited;
  });
  return { admitted, maxMapSize };
}

/**
 * Sorted request times over a few minutes: bursts of 1 to 120 requests (spaced 0 to 600 ms, so
 * many land on the same millisecond or slot) separated by pauses of up to 70 s.
 */
const requestTimes = fc
  .tuple(
    nowArb,
    fc.array(
      fc.record({
        pause: fc.integer({ min: 0, max: 70_000 }),
        count: fc.integer({ min: 1, max: 120 }),
        spacing: fc.integer({ min: 0, max: 600 }),
      }),
      { minLength: 1, maxLength: 6, size: 'max' },
    ),
  )
  .map(([start, bursts]) => {
    const times: number[] = [];
    let t = start;
    for (const burst of bursts) {
      t += burst.pause;
      for (let i = 0; i < burst.count; i++) times.push((t += i === 0 ? 0 : burst.spacing));
    }
    return times;
  });

/** How many of the requests before the i-th (times sorted) satisfy `recent`, a suffix predicate. */
function countBefore(times: readonly number[], i: number, recent: (t: number) => boolean): number {
  let count = 0;
  for (let j = i - 1; j >= 0 && recent(times[j] as number); j--) count++;
  return count;
}

/** Most generated sequences must actually hit the limit, or the properties below prove little. */
test('the generated request sequences often exceed 100 requests per 60 s', () => {
  const outcomes = fc.sample(requestTimes, { numRuns: 200, seed: 42 }).map((times) => simulate(times).admitted);
  const withRejections = outcomes.filter((admitted) => admitted.includes(false)).length;
  expect(withRejections).toBeGreaterThan(40);
});

describe('sliding window as the store applies it', () => {
  test('admits at most 100 requests in any 60 s interval', () => {
    fc.assert(
      fc.property(requestTimes, (times) => {
        const { admitted } = simulate(times);
        const admittedTimes = times.filter((_, i) => admitted[i]);
        for (let i = 0; i < admittedTimes.length; i++) {
          const start = admittedTimes[i] as number;
          let inInterval = 0;
          for (let j = i; j < admittedTimes.length && (admittedTimes[j] as number) <= start + WINDOW; j++) inInterval++;
          expect(inInterval).toBeLessThanOrEqual(LIMIT);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('admits a request when fewer than 100 requests (admitted or not) came in the 65 s before it', () => {
    // The documented granularity: a request counts for 60 to 65 s, never longer.
    fc.assert(
      fc.property(requestTimes, (times) => {
        const { admitted } = simulate(times);
        times.forEach((now, i) => {
          if (countBefore(times, i, (t) => t > now - (WINDOW + SLOT)) < LIMIT) expect(admitted[i]).toBe(true);
        });
      }),
      { numRuns: 200 },
    );
  });

  test('refuses a request when 100 requests came in the 60 s before it', () => {
    fc.assert(
      fc.property(requestTimes, (times) => {
        const { admitted } = simulate(times);
        times.forEach((now, i) => {
          if (countBefore(times, i, (t) => t >= now - WINDOW) >= LIMIT) expect(admitted[i]).toBe(false);
        });
      }),
      { numRuns: 200 },
    );
  });

  test('keeps the slot map bounded (the item never grows past MAX_TRACKED_SLOTS + 1 slots)', () => {
    fc.assert(
      fc.property(requestTimes, (times) => {
        expect(simulate(times).maxMapSize).toBeLessThanOrEqual(MAX_TRACKED_SLOTS + 1);
      }),
      { numRuns: 200 },
    );
  });
});
