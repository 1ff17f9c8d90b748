/**
 * Jest setup of the unit project: what the functions print (Powertools' JSON log lines, WARN and
 * above on stderr, the rest and EMF metric lines on stdout) during a test is kept for it to read,
 * instead of running into Jest's report. Each test starts with nothing printed.
 */

let printed: string[] = [];
const restores: (() => void)[] = [];

beforeEach(() => {
  printed = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
    restores.push(() => write.mockRestore());
  }
});

afterEach(() => {
  for (const restore of restores.splice(0)) restore();
});

/** Everything printed so far in this test, both streams, in order, as text. */
export const printedText = (): string => printed.join('');

/** Each line printed so far in this test, parsed: every line the functions print is one JSON object. */
export const printedLines = (): Record<string, unknown>[] =>
  printedText()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The EMF lines (with an `_aws` key) printed so far, each reduced to its metric and dimension values. */
export const printedMetrics = (): Record<string, unknown>[] =>
  printedLines()
    .filter((line) => '_aws' in line)
    .map(({ _aws: _ignored, ...values }) => values);
