import { judge, medianInterval, pairedInterval, percentile, ratioOf } from '#bench/stats';

const pairedRatioInterval = (measured: number[], baseline: number[]) => pairedInterval(measured, baseline, ratioOf);

describe('percentile', () => {
  test('nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('a median with its 95% bootstrap interval', () => {
  // Warm milliseconds a route adds: about 0.3, with a stray request now and then.
  const added = (count: number): number[] => Array.from({ length: count }, (_, index) => 0.3 + 0.05 * Math.sin(index) + (index % 20 === 0 ? 2 : 0));

  test('holds the median, and a stray request moves neither', () => {
    const interval = medianInterval(added(60));
    expect(interval.median).toBeCloseTo(0.3, 1);
    expect(interval.low).toBeLessThanOrEqual(interval.median);
    expect(interval.high).toBeGreaterThanOrEqual(interval.median);
    expect(interval.high).toBeLessThan(0.5);
  });

  test('needs a sample', () => {
    expect(() => medianInterval([])).toThrow();
  });
});

describe('a ratio over paired samples, with its 95% bootstrap interval', () => {
  // Samples like a cold start's: about 200 ms of CPU, straying by about 12%.
  const around = (centre: number, count: number, seed: number): number[] =>
    Array.from({ length: count }, (_, index) => centre * (1 + 0.12 * Math.sin(index * 2.3 + seed)));

  test("is the median of the pairs' ratios, inside its interval", () => {
    const interval = pairedRatioInterval(around(240, 72, 1), around(200, 72, 2));
    expect(interval.median).toBeCloseTo(1.2, 1);
    expect(interval.low).toBeLessThanOrEqual(interval.median);
    expect(interval.high).toBeGreaterThanOrEqual(interval.median);
  });

  test('narrows as the samples grow', () => {
    const width = (count: number): number => {
      const interval = pairedRatioInterval(around(200, count, 3), around(200, count, 4));
      return interval.high - interval.low;
    };
    expect(width(72)).toBeLessThan(width(8));
  });

  test('a machine that runs a third faster in its last rounds moves neither the ratio nor the interval', () => {
    const steady = { measured: around(240, 72, 5), baseline: around(200, 72, 6) };
    const faster = (samples: number[]): number[] => samples.map((value, index) => (index >= 48 ? value * 0.7 : value));
    const drifting = pairedRatioInterval(faster(steady.measured), faster(steady.baseline));
    expect(drifting).toEqual(pairedRatioInterval(steady.measured, steady.baseline));
  });

  test('is the same for the same samples: the report can be rebuilt from them', () => {
    expect(pairedRatioInterval(around(230, 24, 5), around(200, 24, 6))).toEqual(pairedRatioInterval(around(230, 24, 5), around(200, 24, 6)));
  });

  test('needs pairs: samples on both sides, as many on each', () => {
    expect(() => pairedRatioInterval([], [])).toThrow();
    expect(() => pairedRatioInterval([1, 2], [1])).toThrow();
  });
});

describe('an interval against a budget', () => {
  test('passes when all of it is within the budget', () => {
    expect(judge({ median: 1.02, low: 0.97, high: 1.1 }, 1.1).verdict).toBe('pass');
  });

  test('misses only when all of it is over the budget', () => {
    expect(judge({ median: 1.2, low: 1.11, high: 1.3 }, 1.1).verdict).toBe('miss');
  });

  test('across the budget, the run cannot tell it from noise: "within noise", which is no miss', () => {
    expect(judge({ median: 1.05, low: 1.0, high: 1.11 }, 1.1).verdict).toBe('within noise');
    expect(judge({ median: 1.2, low: 1.1, high: 1.3 }, 1.1).verdict).toBe('within noise');
  });
});
