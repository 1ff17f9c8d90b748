import type { ColdStartRow } from '#bench/cold-start';
import { estimateCosts, type MeasuredRequest } from '#bench/cost';
import { renderReport, verdicts, type BenchResults } from '#bench/report';
import { judge } from '#bench/stats';
import type { LargeFigure, WarmRow } from '#bench/warm';

/** What docs/performance.md says of a run: every budget's verdict, "within noise" passing. Nothing here is timed. */

const usage = { calls: 2, readUnits: 0, writeUnits: 2 };
const warmRow = (name: string, overFloor: { median: number; low: number; high: number }, calls = 2): WarmRow => ({
  name,
  kind: 'route',
  usage: { ...usage, calls },
  commands: ['UpdateItemCommand', 'PutItemCommand'],
  floorEvent: {},
  requestBytes: 1024,
  responseBytes: 100,
  handlerMs: 6,
  callsMs: 5.4,
  addedMs: 0.6,
  floorAddedMs: 0.3,
  overFloorMs: judge(overFloor, 0.5),
});
const coldRow = (name: string, ratio: { median: number; low: number; high: number }): ColdStartRow => ({
  name,
  bundleKb: 300,
  floorKb: 260,
  functionMs: 180,
  floorMs: 170,
  ratio: judge(ratio, 1.1),
});
const large: LargeFigure = {
  usage,
  requestBytes: 5_000_000,
  responseBytes: 100,
  handlerMs: 900,
  callsMs: 850,
  ratio: judge({ median: 1.05, low: 1.02, high: 1.1 }, 1.15),
};
const measured: MeasuredRequest = { readUnits: 1, writeUnits: 2, handlerMs: 6, requestBytes: 1024, responseBytes: 100 };
const costs = estimateCosts({
  create1Kb: measured,
  claim1Kb: measured,
  readKey: measured,
  create5MiB: measured,
  claim5MiB: measured,
  pipeline: { deletionWriteUnits: { secret1Kb: 1, secret5MiB: 5000 }, fanOutMsPerBatch: 5, deliveryMsPerJob: 5 },
});

const results = (warm: WarmRow[], coldStarts: ColdStartRow[]): BenchResults => ({
  startedAt: '2026-12-05 03:00 UTC',
  durationS: 150,
  commit: 'abc1234',
  machine: '2 CPUs',
  warm,
  large: { create: large, claim: large, revoke: usage },
  coldStarts,
  costs,
});

test('an interval across a budget is "within noise", and the run still passes', () => {
  const run = results(
    [warmRow('keys-update', { median: 0.53, low: 0.46, high: 0.65 })],
    [coldRow('secrets-create', { median: 1.15, low: 1.01, high: 1.19 })],
  );

  expect(verdicts(run)).not.toContain('miss');
  const report = renderReport(run);
  expect(report).toContain('**Pass**: 3 pass, 2 within noise, 0 miss.');
  expect(report).toMatch(/\| keys-update \|.*\| 0\.53 \(0\.46–0\.65\) \| within noise \|/);
  expect(report).toMatch(/\| secrets-create \|.*\| 1\.15× \(1\.01–1\.19\) \| within noise \|/);
});

test('an interval wholly over its budget misses, and so does a route with a call too many', () => {
  const run = results(
    [warmRow('requests-fulfil', { median: 0.55, low: 0.51, high: 0.59 }), warmRow('keys-get', { median: 0.2, low: 0.1, high: 0.3 }, 3)],
    [coldRow('health', { median: 1.2, low: 1.12, high: 1.3 })],
  );

  expect(verdicts(run).filter((verdict) => verdict === 'miss')).toHaveLength(3);
  const report = renderReport(run);
  expect(report).toContain('**Miss**: 4 pass, 0 within noise, 3 miss.');
  expect(report).toMatch(/\| requests-fulfil \|.*\| \*\*miss\*\* \|/);
  expect(report).toMatch(/\| keys-get \| \*\*3\*\* \|/);
  expect(report).toMatch(/\| health \|.*\| 1\.2× \(1\.12–1\.3\) \| \*\*miss\*\* \|/);
});

test('the report fits the 150 lines docs/performance.md may take', () => {
  const fifteen = Array.from({ length: 15 }, (_, index) => `function-${index}`);
  const run = results(
    fifteen.map((name) => warmRow(name, { median: 0.2, low: 0.1, high: 0.3 })),
    fifteen.map((name) => coldRow(name, { median: 1, low: 0.9, high: 1.05 })),
  );

  expect(renderReport(run).split('\n').length).toBeLessThanOrEqual(150);
});
