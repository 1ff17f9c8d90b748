import type { BenchRun, CodeVersion } from '#bench/history';
import { RUNS_JUDGED, verdictOver, withRun } from '#bench/history';

const committed: CodeVersion = { commit: 'a'.repeat(40), uncommitted: false };

/** A run of `code` started `minutes` after 22:00; the figures are not read by the history. */
const runAt = (minutes: number, code: CodeVersion = committed): BenchRun =>
  ({ code, startedAt: new Date(Date.UTC(2026, 10, 25, 22, minutes)).toISOString() }) as BenchRun;

describe('the runs a verdict rests on', () => {
  it('keeps the latest runs of the same committed code, up to the number judged', () => {
    let runs: BenchRun[] = [];
    for (let index = 0; index <= RUNS_JUDGED; index++) runs = withRun({ runs }, runAt(index * 20));
    expect(runs.map((run) => run.startedAt)).toEqual([runAt(20), runAt(40), runAt(60)].map((run) => run.startedAt));
  });

  it('starts again when the code changed, or when either run measured uncommitted changes', () => {
    const earlier = [runAt(0), runAt(20)];
    expect(withRun({ runs: earlier }, runAt(40, { commit: 'b'.repeat(40), uncommitted: false }))).toHaveLength(1);
    expect(withRun({ runs: earlier }, runAt(40, { ...committed, uncommitted: true }))).toHaveLength(1);
    expect(withRun({ runs: [runAt(0, { ...committed, uncommitted: true })] }, runAt(20))).toHaveLength(1);
    expect(withRun(undefined, runAt(0))).toHaveLength(1);
  });

  it('passes a budget only when every run passed it, in enough runs spread over an hour', () => {
    const spread = [runAt(0), runAt(30), runAt(60)];
    expect(verdictOver(spread, [true, true, true])).toBe('pass');
    expect(verdictOver(spread, [true, false, true])).toBe('miss');
    expect(verdictOver(spread.slice(0, 2), [true, true])).toBe('pending');
    expect(verdictOver([runAt(0), runAt(20), runAt(40)], [true, true, true])).toBe('pending');
    expect(verdictOver([runAt(0), runAt(30), runAt(59)], [true, true, true])).toBe('pending');
  });
});
