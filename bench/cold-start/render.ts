import type { Repeated } from '../stats';
import type { ColdStartResult } from './result';

/** The cold-start section of docs/performance.md. */

const spread = (figure: Repeated, digits: number): string =>
  `${figure.median.toFixed(digits)} (${figure.min.toFixed(digits)}–${figure.max.toFixed(digits)})`;

export function renderColdStarts(result: ColdStartResult): string {
  return [
    '## 2. Cold start per function',
    '',
    "Each sample is a fresh `node` that imports one bundle, built with the stack's own esbuild options (`lib/bundling.ts`), " +
      'and hands its handler one request; every request has a fixture of its own, and the pipeline functions reach a ' +
      "real queue and webhook receiver. A function's floor (`bench/cold-start/floor/`) is built the same way, builds the " +
      "same SDK clients with the same settings (the functions' own `lambdas/store/dynamo.ts`, `lambdas/webhooks/queue/sqs.ts`), " +
      "makes the same calls (the same DynamoDB commands in the same order, the fan-out's SendMessage, the delivery's POST), " +
      `and nothing else. In each of ${result.repetitions} repetitions, spread over the run, ` +
      `${result.samplesPerRepetition} samples of each bundle alternate; a repetition's ratio is of the two medians. ` +
      "The budget judges the child's CPU time until the response is in hand (Node's own start-up included), which " +
      'other processes move far less than the elapsed time from spawn to response (shown beside it, and which they can ' +
      "double); even so, one sample's CPU time strays by 11–16% on this shared machine, so every sample is kept in " +
      '`docs/performance.json` and the proposed verdict above pools them over the runs. ' +
      'Times in ms, median of the repetitions (min–max). ' +
      "The last columns judge the same CPU time against the function's house floor (`bench/cold-start/floor/house*.ts`), " +
      'the floor inside what the house rules give every function of its kind before its own work: middy with the ' +
      "JSON body parser and Powertools' Logger and Metrics for a route, with the route's body checked by a zod " +
      "schema when it takes one; Powertools' batch processor for a pipeline function. It is the measure proposed " +
      'in docs/decisions/cold-start-module-evaluation.md: what our own code adds beyond the libraries we chose.',
    '',
    '| function | KB | floor KB | CPU ms | floor CPU ms | ratio | budget | verdict | elapsed ms | floor elapsed ms | elapsed ratio | house floor KB | house floor CPU ms | ÷ house floor | verdict |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...result.rows.map(
      (row) =>
        `| ${[
          row.name,
          row.bundleKb.toFixed(1),
          row.floor.kb.toFixed(1),
          spread(row.cpu.functionMs, 1),
          spread(row.cpu.floorMs, 1),
          spread(row.cpu.ratio, 2),
          `≤ ${row.cpu.ratio.budget.toFixed(2)}`,
          row.cpu.ratio.pass ? 'pass' : '**miss**',
          spread(row.elapsed.functionMs, 1),
          spread(row.elapsed.floorMs, 1),
          spread(row.elapsed.ratio, 2),
          row.house.kb.toFixed(1),
          spread(row.house.floorMs, 1),
          spread(row.house.ratio, 2),
          row.house.ratio.pass ? 'pass' : '**miss**',
        ].join(' | ')} |`,
    ),
    '',
  ].join('\n');
}
