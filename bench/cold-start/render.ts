import type { ColdStartResult, ColdStartRow, ColdStartTimes } from './result';

/** The cold-start section of docs/performance.md. */

const spread = (times: ColdStartTimes): string =>
  `${times.medianMs.toFixed(1)} (${times.minMs.toFixed(0)}–${times.maxMs.toFixed(0)})`;

const phases = (times: ColdStartTimes): string => `${times.importedAtMs.toFixed(1)} / ${times.answeredAtMs.toFixed(1)}`;

function tableRow(row: ColdStartRow, verdictCell: string, overFirstCall: string): string {
  const cells = [
    row.handler,
    row.bundleKb.toFixed(1),
    spread(row.baseline),
    spread(row.measured),
    phases(row.measured),
    row.ratio.toFixed(2),
    `≤ ${row.budget.toFixed(2)}`,
    verdictCell,
    overFirstCall,
  ];
  return `| ${cells.join(' | ')} |`;
}

export function renderColdStarts(result: ColdStartResult): string {
  return [
    '## Cold start per function',
    '',
    "Each sample is a fresh `node` that imports one bundle, built with the stack's own esbuild options, and hands " +
      "its handler one request, timed from the spawn until the child reports the (successful) response; every " +
      'request has a fixture of its own, and the pipeline functions reach a real queue and webhook receiver. ' +
      `The baseline bundle (${result.baselineBundleKb.toFixed(1)} KB) only constructs a DynamoDB document client and ` +
      `answers at once, through the same runner and environment; ${result.runs} of its samples alternate with ` +
      "each row's after an untimed warm-up, and the ratio is of the two medians. " +
      'The reference row adds one GetItem through that SDK client: the SDK does one-off work on its first call ' +
      '(middleware, endpoint rules, serde, credentials), so its ratio is the floor of any function that calls ' +
      "DynamoDB through the SDK. The functions call DynamoDB and SQS through the service's own small signed client " +
      "instead (`lambdas/aws/aws-json-client.ts`, see the README), and the last column divides each function's ratio by the reference's.",
    '',
    '| Bundle | KB | Baseline ms, median (min–max) | Bundle ms, median (min–max) | Imported / answered at ms | Ratio | Budget | Result | ÷ reference |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
    tableRow(result.firstCall, 'reference', '1.00'),
    ...result.handlers.map((row) => tableRow(row, row.pass ? 'pass' : '**miss**', row.ratioToFirstCall.toFixed(2))),
    '',
    '"Imported / answered at": medians on the child\'s own clock from its process start, when the bundle was ' +
      'imported (module initialisation done) and when the response was in hand. The functions set up their ' +
      'clients at their first call, the baseline and the reference at import.',
    '',
  ].join('\n');
}
