import { ROUND_TRIP_BUDGET, routeCallBudget } from '#test/support/round-trip-cases';
import { COLD_START_BUDGET, type ColdStartRow } from './cold-start';
import { renderCosts, type CostReport } from './cost';
import type { Judged, Verdict } from './stats';
import { LARGE_PAYLOAD_BUDGET, WARM_ALLOWANCE_MS, type LargeFigure, type LargePayloads, type Measured, type WarmRow } from './warm';

/** docs/performance.md: the last run of `npm run bench`, every budget judged on its own samples. */

export interface BenchResults {
  startedAt: string;
  durationS: number;
  commit: string;
  machine: string;
  warm: WarmRow[];
  large: LargePayloads;
  coldStarts: ColdStartRow[];
  costs: CostReport;
}

const VERDICT_CELLS: Record<Verdict, string> = { pass: 'pass', miss: '**miss**', 'within noise': 'within noise' };
const interval = (judged: Judged, unit: string): string => `${judged.median}${unit} (${judged.low}–${judged.high})`;
const table = (header: readonly string[], rows: readonly (string | number)[][]): string[] => [
  `| ${header.join(' | ')} |`,
  `|${header.map((_, index) => (index === 0 ? '---' : '--:')).join('|')}|`,
  ...rows.map((row) => `| ${row.join(' | ')} |`),
];

/** Every verdict of the run: a miss fails it; "within noise" passes. */
export function verdicts(results: BenchResults): Verdict[] {
  return [
    ...results.warm.map((row) => row.overFloorMs.verdict),
    ...results.warm.filter((row) => row.kind === 'route').map((row): Verdict => (row.usage.calls <= routeCallBudget(row.name) ? 'pass' : 'miss')),
    results.large.create.ratio.verdict,
    results.large.claim.ratio.verdict,
    ...results.coldStarts.map((row) => row.ratio.verdict),
  ];
}

function summary(results: BenchResults): string {
  const all = verdicts(results);
  const count = (verdict: Verdict): number => all.filter((each) => each === verdict).length;
  return `**${count('miss') === 0 ? 'Pass' : 'Miss'}**: ${count('pass')} pass, ${count('within noise')} within noise, ${count('miss')} miss.`;
}

const calls = (row: WarmRow): string | number =>
  row.kind === 'route' && row.usage.calls > routeCallBudget(row.name) ? `**${row.usage.calls}**` : row.usage.calls;
const usage = ({ usage }: Measured): (string | number)[] => [usage.readUnits, usage.writeUnits];
const verdict = (judged: Judged): string => VERDICT_CELLS[judged.verdict];

const warmSection = (rows: readonly WarmRow[]): string[] => [
  '## Requests, warm',
  '',
  `Each function's typical request (1 KB of data where it takes any), invoked warm in the bench's process as Lambda invokes it, in turn ` +
    `with its house floor (below) making the same SDK calls. DynamoDB calls and capacity as DynamoDB Local reported them (a route may make ` +
    `${ROUND_TRIP_BUDGET.calls}, a revocation one more for its receipt). Medians: the handler's time, its calls' time in flight, and the difference, **added** over the bare calls, ` +
    `for the function and its floor. **Over floor**: the function's added less the floor's, pair by pair, median with its 95% interval, ` +
    `against an allowance of ${WARM_ALLOWANCE_MS} ms.`,
  '',
  ...table(
    ['Function', 'Calls', 'Read units', 'Write units', 'Handler ms', 'In calls ms', 'Added ms', 'Floor added ms', 'Over floor ms (95%)', 'Verdict'],
    rows.map((row) => [
      row.name,
      calls(row),
      ...usage(row),
      row.handlerMs,
      row.callsMs,
      row.addedMs,
      row.floorAddedMs,
      interval(row.overFloorMs, ''),
      verdict(row.overFloorMs),
    ]),
  ),
];

const largeRow = (name: string, figure: LargeFigure): (string | number)[] => [
  name,
  figure.usage.calls,
  ...usage(figure),
  figure.handlerMs,
  figure.callsMs,
  interval(figure.ratio, '×'),
  verdict(figure.ratio),
];

const largeSection = (large: LargePayloads): string[] => [
  '## 5 MiB secrets',
  '',
  `A 5 MiB secret created and claimed (its last view) through its routes, in pairs after one untimed pair. Handler time ÷ the time its ` +
    `calls were in flight, per request, median with its 95% interval, against ${LARGE_PAYLOAD_BUDGET}×. Its deletion: ` +
    `${large.revoke.calls} calls, ${large.revoke.writeUnits} write units.`,
  '',
  ...table(
    ['Request', 'Calls', 'Read units', 'Write units', 'Handler ms', 'In calls ms', '÷ calls (95%)', 'Verdict'],
    [largeRow('POST /secrets', large.create), largeRow('GET /secrets/:id', large.claim)],
  ),
];

const coldSection = (rows: readonly ColdStartRow[]): string[] => [
  '## Cold init',
  '',
  `Each function's bundle, built as the stack builds it, imported by a fresh \`node\` that handles one request; against its house floor, ` +
    `a bundle that makes the same SDK calls inside middy, Powertools (Logger, Metrics; the batch processor for the pipeline) and zod ` +
    `(\`bench/cold-start/floor/\`). The child's CPU time until the response, medians; the ratio pair by pair with its 95% interval, ` +
    `against ${COLD_START_BUDGET}×.`,
  '',
  ...table(
    ['Function', 'Bundle KB', 'Floor KB', 'CPU ms', 'Floor ms', '÷ floor (95%)', 'Verdict'],
    rows.map((row) => [row.name, row.bundleKb, row.floorKb, row.functionMs, row.floorMs, interval(row.ratio, '×'), verdict(row.ratio)]),
  ),
];

export function renderReport(results: BenchResults): string {
  return [
    '# Performance',
    '',
    `Written by \`npm run bench\` (bench/): the last run, ${results.startedAt} at ${results.commit}, ${results.durationS} s on ` +
      `${results.machine}. A budget passes when its whole 95% interval is within it and misses when all of it is over; an interval ` +
      'across the budget is **within noise** and passes. Figures from a shared machine move from run to run; the raw samples are in ' +
      '`.bench/last-run.json`, outside the repository.',
    '',
    summary(results),
    '',
    ...warmSection(results.warm),
    '',
    ...largeSection(results.large),
    '',
    ...coldSection(results.coldStarts),
    '',
    renderCosts(results.costs).trimEnd(),
    '',
  ].join('\n');
}
