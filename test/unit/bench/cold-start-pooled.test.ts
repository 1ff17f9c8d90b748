import { pooledColdStarts, renderPooledColdStarts } from '#bench/cold-start/pooled';
import type { ColdStartResult, ColdStartRow } from '#bench/cold-start/result';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { judge, repeated } from '#bench/stats';

/** A run's 24 samples (3 repetitions of 8) around `centre` ms, straying by up to ±15%, as an idle machine's do. */
function samplesAround(centre: number, seed: number): number[] {
  const random = xoroshiro128plus(seed);
  return Array.from({ length: 24 }, () => centre * (1 + uniformInt(random, -150, 150) / 1000));
}

const row = (name: string, functionMs: number, floorMs: number, houseFloorMs: number, seed: number): ColdStartRow => ({
  name,
  bundleKb: 270,
  floor: { entry: 'bench/cold-start/floor/dynamodb.ts', kb: 208 },
  cpu: { functionMs: repeated([functionMs]), floorMs: repeated([floorMs]), ratio: judge([functionMs / floorMs], 1.1) },
  elapsed: { functionMs: repeated([functionMs]), floorMs: repeated([floorMs]), ratio: repeated([1]) },
  house: { entry: 'bench/cold-start/floor/house.ts', kb: 240, floorMs: repeated([houseFloorMs]), ratio: judge([functionMs / houseFloorMs], 1.1) },
  samples: { function: samplesAround(functionMs, seed), floor: samplesAround(floorMs, seed + 1), houseFloor: samplesAround(houseFloorMs, seed + 2) },
});

/** One run: a function at its floor, one far over it, and one a little over it. */
const run = (seed: number): ColdStartResult => ({
  repetitions: 3,
  samplesPerRepetition: 8,
  retriedSamples: 0,
  rows: [row('health', 200, 200, 200, seed), row('keys-create', 250, 200, 215, seed + 3), row('keys-get', 216, 200, 200, seed + 6)],
  aa: {
    name: 'keys-get',
    floor: 'bench/cold-start/floor/dynamodb.ts',
    samples: { a: samplesAround(200, seed + 9), b: samplesAround(200, seed + 10) },
  },
});

describe('cold starts pooled over the runs', () => {
  const three = pooledColdStarts([run(0), run(100), run(200)], 1.1);
  const byName = (name: string) => three.rows.find((each) => each.name === name);

  test("pools every run's samples of each function", () => {
    expect(three.samplesPerSide).toBe(72);
    expect(three.rows.map((each) => each.name)).toEqual(['health', 'keys-create', 'keys-get']);
  });

  test('passes a function at its floor and misses one far over it', () => {
    expect(byName('health')?.floor.verdict).toBe('pass');
    expect(byName('keys-create')?.floor.verdict).toBe('miss');
  });

  test('judges the house floor apart from the floor', () => {
    expect(byName('keys-create')?.house.ratio).toBeLessThan(byName('keys-create')?.floor.ratio ?? 0);
  });

  test('cannot tell a function near the budget from one just over it', () => {
    expect(byName('keys-get')?.floor.verdict).toBe('cannot tell');
  });

  test('the A/A row compares the second build with the first', () => {
    expect(three.aa.interval.low).toBeLessThanOrEqual(1);
    expect(three.aa.interval.high).toBeGreaterThanOrEqual(1);
  });

  test('a run without a function the latest run has adds none of its samples', () => {
    const older = { ...run(300), rows: run(300).rows.filter((each) => each.name !== 'keys-get') };
    const pooled = pooledColdStarts([older, run(0)], 1.1);
    expect(pooled.samplesPerSide).toBe(24);
  });

  test('the section shows each function, its interval and verdict, and the A/A row', () => {
    const markdown = renderPooledColdStarts(three, 3);
    expect(markdown).toContain('every sample of the 3 runs pooled, 72 a side');
    expect(markdown).toMatch(/\| keys-create \| 1\.\d\d× \(1\.\d\d–1\.\d\d\) \| \*\*miss\*\* \|/);
    expect(markdown).toContain("| A/A: keys-get's floor ÷ itself |");
  });
});
