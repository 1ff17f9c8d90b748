import { renderColdStarts } from '../../../bench/cold-start/render';
import type { ColdStartResult, ColdStartTimes } from '../../../bench/cold-start/result';

const times = (medianMs: number): ColdStartTimes => ({
  medianMs,
  minMs: medianMs - 2,
  maxMs: medianMs + 3,
  importedAtMs: medianMs - 30,
  answeredAtMs: medianMs - 4,
});

const RESULT: ColdStartResult = {
  runs: 11,
  budget: 1.15,
  baselineBundleKb: 333.7,
  firstCall: { handler: 'baseline + one GetItem', bundleKb: 334.4, baseline: times(60), measured: times(84), ratio: 1.4, budget: 1.15, pass: false },
  handlers: [
    { handler: 'health', bundleKb: 348.4, baseline: times(60), measured: times(66), ratio: 1.1, budget: 1.15, pass: true, ratioToFirstCall: 0.79 },
    { handler: 'keys-create', bundleKb: 386, baseline: times(60), measured: times(100), ratio: 1.67, budget: 1.15, pass: false, ratioToFirstCall: 1.19 },
  ],
};

describe('renderColdStarts', () => {
  const markdown = renderColdStarts(RESULT);
  // The table's lines below its header and separator.
  const rows = markdown.split('\n').filter((line) => line.startsWith('| ')).slice(2);

  test('a row for the reference, then one per function, in order', () => {
    expect(rows.map((row) => row.split(' | ')[0])).toEqual(['| baseline + one GetItem', '| health', '| keys-create']);
  });

  test('each row: KB, baseline and bundle median (min–max), phases, ratio, budget, verdict, ratio to the reference', () => {
    expect(rows[0]).toBe('| baseline + one GetItem | 334.4 | 60.0 (58–63) | 84.0 (82–87) | 54.0 / 80.0 | 1.40 | ≤ 1.15 | reference | 1.00 |');
    expect(rows[1]).toBe('| health | 348.4 | 60.0 (58–63) | 66.0 (64–69) | 36.0 / 62.0 | 1.10 | ≤ 1.15 | pass | 0.79 |');
    expect(rows[2]).toContain('| 1.67 | ≤ 1.15 | **miss** | 1.19 |');
  });

  test('says how it measured: the baseline bundle, the run count', () => {
    expect(markdown).toContain('The baseline bundle (333.7 KB)');
    expect(markdown).toContain('11 of its samples alternate');
  });
});
