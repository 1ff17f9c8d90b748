import { judge, judgeInterval, pairedRatioInterval, percentile, repeated, roundsPercentileRatios, type Round } from '#bench/stats';

describe('percentile', () => {
  test('nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('a figure over repetitions', () => {
  test('median and spread', () => {
    expect(repeated([1.31, 1.02, 1.07])).toEqual({ median: 1.07, min: 1.02, max: 1.31 });
  });

  test('is judged on its median: one stray repetition neither fails nor passes it', () => {
    expect(judge([1.31, 1.02, 1.07], 1.1)).toMatchObject({ median: 1.07, pass: true });
    expect(judge([1.12, 0.9, 1.15], 1.1)).toMatchObject({ median: 1.12, pass: false });
  });

  test('a median on the budget passes', () => {
    expect(judge([1.1, 1.1, 1.2], 1.1).pass).toBe(true);
  });

  test('needs a repetition', () => {
    expect(() => repeated([])).toThrow();
  });
});

describe('a ratio over paired samples, with its 95% bootstrap interval', () => {
  // Samples like a cold start's: about 200 ms of CPU, straying by about 12%.
  const around = (centre: number, count: number, seed: number): number[] =>
    Array.from({ length: count }, (_, index) => centre * (1 + 0.12 * Math.sin(index * 2.3 + seed)));

  test("is the median of the pairs' ratios, inside its interval", () => {
    const interval = pairedRatioInterval(around(240, 72, 1), around(200, 72, 2));
    expect(interval.ratio).toBeCloseTo(1.2, 1);
    expect(interval.low).toBeLessThanOrEqual(interval.ratio);
    expect(interval.high).toBeGreaterThanOrEqual(interval.ratio);
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

describe('a percentile ratio over rounds, with its 95% interval', () => {
  // A round's latencies: 50 a side, about `centre` ms, with a long tail as a loaded route's have.
  const latencies = (centre: number, seed: number): number[] =>
    Array.from({ length: 50 }, (_, index) => centre * (1 + 0.2 * Math.sin(index * 1.7 + seed) + (index % 25 === 0 ? 1.5 : 0)));
  const roundsOf = (measuredMs: number, baselineMs: number, count: number, speed: (round: number) => number = () => 1): Round[] =>
    Array.from({ length: count }, (_, round) => ({
      measured: latencies(measuredMs * speed(round), round),
      baseline: latencies(baselineMs * speed(round), round + 0.5),
    }));

  test('gives one interval per percentile, each around the ratio of the pooled percentiles', () => {
    const [p50, p99] = roundsPercentileRatios(roundsOf(12, 10, 18), [50, 99]);
    expect(p50?.ratio).toBeCloseTo(1.2, 1);
    expect(p99?.ratio).toBeCloseTo(1.2, 1);
    for (const interval of [p50, p99]) {
      expect(interval?.low).toBeLessThanOrEqual(interval?.ratio ?? 0);
      expect(interval?.high).toBeGreaterThanOrEqual(interval?.ratio ?? 0);
    }
  });

  test('a machine twice as slow in a third of the rounds leaves two equal sides at 1', () => {
    const [p50, p99] = roundsPercentileRatios(
      roundsOf(10, 10, 54, (round) => (round % 3 === 0 ? 2 : 1)),
      [50, 99],
    );
    expect(p50?.ratio).toBeCloseTo(1, 1);
    expect(p99?.ratio).toBeCloseTo(1, 1);
  });

  test('narrows as the rounds grow', () => {
    const width = (count: number): number => {
      const [p50] = roundsPercentileRatios(
        roundsOf(11, 10, count, (round) => 1 + (round % 4) / 10),
        [50],
      );
      return (p50?.high ?? 0) - (p50?.low ?? 0);
    };
    expect(width(54)).toBeLessThan(width(6));
  });

  test('needs rounds with samples on both sides', () => {
    expect(() => roundsPercentileRatios([], [50])).toThrow();
    expect(() => roundsPercentileRatios([{ measured: [1], baseline: [] }], [50])).toThrow();
  });
});

describe('an interval against a budget', () => {
  test('passes only when all of it is within the budget', () => {
    expect(judgeInterval({ ratio: 1.02, low: 0.97, high: 1.1 }, 1.1).verdict).toBe('pass');
    expect(judgeInterval({ ratio: 1.05, low: 1.0, high: 1.11 }, 1.1).verdict).toBe('cannot tell');
  });

  test('misses only when all of it is over the budget', () => {
    expect(judgeInterval({ ratio: 1.2, low: 1.11, high: 1.3 }, 1.1).verdict).toBe('miss');
    expect(judgeInterval({ ratio: 1.2, low: 1.1, high: 1.3 }, 1.1).verdict).toBe('cannot tell');
  });
});
