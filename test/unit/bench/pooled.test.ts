import type { LargePayloadFigure, LargePayloadResult } from '#bench/large-payloads';
import { countVerdicts, pooledLargePayloads, pooledWarmLatency, renderPooledLatencies, verdictOfAll } from '#bench/pooled';
import { judge, judgeInterval, repeated } from '#bench/stats';
import type { WarmLatencyResult, WarmLatencyRound } from '#bench/warm-latency';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** `count` latencies around `centre` ms, straying by up to ±30%, as a loaded route's do. */
function latenciesAround(centre: number, count: number, seed: number): number[] {
  const random = xoroshiro128plus(seed);
  return Array.from({ length: count }, () => centre * (1 + uniformInt(random, -300, 300) / 1000));
}

/** 18 rounds of 50 a side (a run: 3 repetitions of 6), the machine `speed` times slower in each round's own way. */
function rounds(localModeMs: number, referenceMs: number, seed: number, speed: (round: number) => number = () => 1): WarmLatencyRound[] {
  return Array.from({ length: 18 }, (_, round) => ({
    localMode: latenciesAround(localModeMs * speed(round), 50, seed + 2 * round),
    reference: latenciesAround(referenceMs * speed(round), 50, seed + 2 * round + 1),
  }));
}

const route = (name: string, measured: WarmLatencyRound[]): WarmLatencyResult => {
  const judged = judge([1], 1.1);
  const figure = repeated([10]);
  return { name, localMode: { p50: figure, p99: figure }, reference: { p50: figure, p99: figure }, p50: judged, p99: judged, rounds: measured };
};

/** A run: a route at its reference, and one a third over it. */
const warmRun = (seed: number): WarmLatencyResult[] => [route('GET /health', rounds(10, 10, seed)), route('GET /keys', rounds(13, 10, seed + 100))];

describe('warm latency pooled over the runs', () => {
  const three = pooledWarmLatency([warmRun(0), warmRun(1000), warmRun(2000)]);
  const byName = (name: string) => three.find((each) => each.name === name);

  test("pools every run's rounds of each route", () => {
    expect(three.map((each) => [each.name, each.rounds])).toEqual([
      ['GET /health', 54],
      ['GET /keys', 54],
    ]);
  });

  test('passes a route at its reference and misses one a third over it, at p50 and p99', () => {
    expect([byName('GET /health')?.p50.verdict, byName('GET /health')?.p99.verdict]).toEqual(['pass', 'pass']);
    expect([byName('GET /keys')?.p50.verdict, byName('GET /keys')?.p99.verdict]).toEqual(['miss', 'miss']);
    expect(byName('GET /keys')?.p50.ratio).toBeCloseTo(1.3, 1);
  });

  test('a machine that is twice as slow in some rounds still finds a route at its reference', () => {
    const drifting = (seed: number): WarmLatencyResult[] => [
      route(
        'GET /health',
        rounds(10, 10, seed, (round) => (round % 3 === 0 ? 2 : 1)),
      ),
    ];
    const [health] = pooledWarmLatency([drifting(0), drifting(1000), drifting(2000)]);
    expect(health?.p50.low).toBeLessThanOrEqual(1);
    expect(health?.p50.high).toBeGreaterThanOrEqual(1);
    expect(health?.p50.verdict).toBe('pass');
  });

  test('a run without a route the latest run has adds none of its rounds', () => {
    const [, keys] = pooledWarmLatency([[route('GET /health', rounds(10, 10, 0))], warmRun(1000)]);
    expect(keys?.rounds).toBe(18);
  });
});

const operation = (localModeMs: number, referenceMs: number, seed: number): LargePayloadFigure => ({
  localModeMs: repeated([localModeMs]),
  referenceMs: repeated([referenceMs]),
  ratio: judge([localModeMs / referenceMs], 1.15),
  samples: { localMode: latenciesAround(localModeMs, 9, seed), reference: latenciesAround(referenceMs, 9, seed + 1) },
});

const largeRun = (seed: number): LargePayloadResult => ({
  bodyBytes: 5_242_879,
  repetitions: 3,
  create: operation(300, 300, seed),
  claim: operation(600, 300, seed + 2),
});

describe('5 MiB payloads pooled over the runs', () => {
  const three = pooledLargePayloads([largeRun(0), largeRun(10), largeRun(20)]);

  test("pools every run's pairs", () => {
    expect(three.pairs).toBe(27);
  });

  test('misses an operation twice its reference and does not miss one at it', () => {
    expect(three.claim.verdict).toBe('miss');
    expect(three.create.verdict).not.toBe('miss');
    expect(three.create.low).toBeLessThanOrEqual(1);
  });
});

describe('the pooled latencies section', () => {
  test('shows each route and operation with its intervals and verdicts', () => {
    const markdown = renderPooledLatencies(pooledWarmLatency([warmRun(0), warmRun(1000)]), pooledLargePayloads([largeRun(0)]), 2);
    expect(markdown).toContain('every sample of the 2 runs pooled. Warm latency: 36 rounds per route');
    expect(markdown).toContain('5 MiB: 9 pairs per operation');
    expect(markdown).toMatch(/\| GET \/keys \| 1\.\d\d× \(1\.\d\d–1\.\d\d\) \| \*\*miss\*\* \| 1\.\d\d× \(1\.\d\d–1\.\d\d\) \| \*\*miss\*\* \|/);
    expect(markdown).toMatch(/\| claim \(last view\) \| 2\.\d\d× \(\d\.\d\d–\d\.\d\d\) \| \*\*miss\*\* \|/);
  });
});

describe('one verdict over many functions', () => {
  const pass = judgeInterval({ ratio: 1, low: 0.95, high: 1.05 }, 1.1);
  const unclear = judgeInterval({ ratio: 1.08, low: 1.02, high: 1.14 }, 1.1);
  const miss = judgeInterval({ ratio: 1.2, low: 1.15, high: 1.25 }, 1.1);

  test('a miss anywhere misses; all passing passes; otherwise it cannot tell', () => {
    expect(verdictOfAll([pass, unclear, miss])).toBe('miss');
    expect(verdictOfAll([pass, pass])).toBe('pass');
    expect(verdictOfAll([pass, unclear])).toBe('cannot tell');
  });

  test('counts each verdict', () => {
    expect(countVerdicts([pass, unclear, miss, pass])).toBe('2 pass, 1 miss, 1 cannot tell');
  });
});
