import { renderColdStarts } from '#bench/cold-start/render';
import type { ColdStartResult, ColdStartRow } from '#bench/cold-start/result';
import { judge, repeated } from '#bench/stats';

const row = (name: string, cpuRatios: number[], houseRatios: number[]): ColdStartRow => ({
  name,
  bundleKb: 216.4,
  floor: { entry: 'bench/cold-start/floor/dynamodb.ts', kb: 205.1 },
  cpu: { functionMs: repeated([81, 80, 84]), floorMs: repeated([75, 74, 77]), ratio: judge(cpuRatios, 1.1) },
  elapsed: { functionMs: repeated([120, 110, 160]), floorMs: repeated([100, 115, 140]), ratio: repeated([1.2, 0.96, 1.14]) },
  house: { entry: 'bench/cold-start/floor/house.ts', kb: 240.2, floorMs: repeated([78, 77, 79]), ratio: judge(houseRatios, 1.1) },
  samples: { function: [81, 80, 84], floor: [75, 74, 77], houseFloor: [78, 77, 79] },
});

const RESULT: ColdStartResult = {
  repetitions: 3,
  samplesPerRepetition: 5,
  retriedSamples: 0,
  rows: [row('health', [1.08, 1.05, 1.09], [1.02, 1.04, 1.03]), row('keys-create', [1.12, 1.3, 1.05], [1.04, 1.12, 1.11])],
  aa: { name: 'keys-get', floor: 'bench/cold-start/floor/dynamodb.ts', samples: { a: [75, 74, 77], b: [76, 73, 77] } },
};

describe('renderColdStarts', () => {
  const markdown = renderColdStarts(RESULT);
  // The table's lines below its header and separator.
  const rows = markdown
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .slice(2);

  test('one row per function, in order', () => {
    expect(rows.map((line) => line.split(' | ')[0])).toEqual(['| health', '| keys-create']);
  });

  test('each row: sizes, CPU medians (min–max), the judged ratio, budget and verdict, the elapsed times, then the house floor', () => {
    expect(rows[0]).toBe(
      '| health | 216.4 | 205.1 | 81.0 (80.0–84.0) | 75.0 (74.0–77.0) | 1.08 (1.05–1.09) | ≤ 1.10 | pass | 120.0 (110.0–160.0) | 115.0 (100.0–140.0) | 1.14 (0.96–1.20) | 240.2 | 78.0 (77.0–79.0) | 1.03 (1.02–1.04) | pass |',
    );
  });

  test('a median over the budget misses, whatever the best repetition', () => {
    expect(rows[1]).toContain('| 1.12 (1.05–1.30) | ≤ 1.10 | **miss** |');
    expect(rows[1]).toMatch(/\| 1\.11 \(1\.04–1\.12\) \| \*\*miss\*\* \|$/);
  });

  test('says how it measured: repetitions and samples', () => {
    expect(markdown).toContain('In each of 3 repetitions');
    expect(markdown).toContain('5 samples of each bundle alternate');
  });
});
