import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SAMPLE_ATTEMPTS, buildRunner, runSample, withRetries } from '#bench/cold-start/sample';

/** The cold-start child: it reports only a successful response, and fails loudly otherwise. Nothing here is timed. */

const HANDLERS = {
  created: 'export const handler = async () => ({ statusCode: 201, body: "{}" });',
  serverError: 'export const handler = async () => ({ statusCode: 500, body: JSON.stringify({ error: "internal server error" }) });',
  batchOk: 'export const handler = async () => ({ batchItemFailures: [] });',
  batchFailure: 'export const handler = async () => ({ batchItemFailures: [{ itemIdentifier: "m1" }] });',
  throws: 'export const handler = async () => { throw new Error("store unavailable"); };',
  noHandler: 'export const other = 1;',
  // Functions log to stdout, as on Lambda: the report must not be confused with a log line.
  logs: 'export const handler = async () => { console.log(JSON.stringify({ message: "webhook attempt" })); return { statusCode: 200 }; };',
  echoesEvent: 'export const handler = async (event, context) => ({ statusCode: event.ok === true && context.functionName ? 200 : 400 });',
  // Answers 503 to its first FAILURES starts (each leaves a file in MARKER_DIR): a store slow for a while.
  unhealthyAtFirst: `import * as fs from 'node:fs';
    export const handler = async () => {
      const marker = process.env.MARKER + '.' + Date.now() + Math.random();
      fs.writeFileSync(marker, '');
      const starts = fs.readdirSync(process.env.MARKER_DIR).length;
      return starts > Number(process.env.FAILURES) ? { statusCode: 200 } : { statusCode: 503, body: JSON.stringify({ error: 'unhealthy' }) };
    };`,
  // PATH is set in every parent: present in the child, it would have leaked.
  readsEnvironment: 'export const handler = async () => ({ statusCode: process.env.ONLY === "1" && process.env.PATH === undefined ? 200 : 500 });',
};

describe('a cold-start sample', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-sample-'));
  const bundle = (name: keyof typeof HANDLERS): string => path.join(dir, `${name}.mjs`);
  let runner: string;

  beforeAll(async () => {
    runner = await buildRunner(dir);
    for (const [name, source] of Object.entries(HANDLERS)) fs.writeFileSync(path.join(dir, `${name}.mjs`), source);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test.each(['created', 'batchOk', 'logs'] as const)('%s: reports when the response is in', async (name) => {
    const cpuMs = await runSample(runner, bundle(name), {}, {});

    // The child's own CPU time, which the cold-start budget judges: Node's start-up alone makes it more than nothing.
    expect(cpuMs).toBeGreaterThan(0);
  });

  test('hands the handler the event and a Lambda context', async () => {
    await expect(runSample(runner, bundle('echoesEvent'), { ok: true }, {})).resolves.toBeDefined();
    await expect(runSample(runner, bundle('echoesEvent'), { ok: false }, {})).rejects.toThrow(/status 400/);
  });

  test.each([
    ['serverError', /status 500 \{"error":"internal server error"\}/],
    ['batchFailure', /batch item failures/],
    ['throws', /store unavailable/],
    ['noHandler', /exports no handler/],
  ] as const)('%s: fails the measurement', async (name, reason) => {
    await expect(runSample(runner, bundle(name), {}, {})).rejects.toThrow(reason);
  });

  describe('taken again when it fails', () => {
    const attempt = (failures: number): { take: () => Promise<unknown>; reasons: string[] } => {
      const markerDir = fs.mkdtempSync(path.join(dir, 'starts-'));
      const env = { MARKER_DIR: markerDir, MARKER: path.join(markerDir, 'start'), FAILURES: String(failures) };
      return { take: () => runSample(runner, bundle('unhealthyAtFirst'), {}, env), reasons: [] };
    };

    test('a sample that fails once is taken again, and the failure is reported', async () => {
      const { take, reasons } = attempt(1);

      await expect(withRetries(take, (reason) => reasons.push(reason))).resolves.toBeDefined();
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toMatch(/unhealthyAtFirst\.mjs failed .*status 503 \{"error":"unhealthy"\}/);
    });

    test('a sample that fails every attempt stops the measurement with its last failure', async () => {
      const { take, reasons } = attempt(SAMPLE_ATTEMPTS);

      await expect(withRetries(take, (reason) => reasons.push(reason))).rejects.toThrow(/status 503/);
      expect(reasons).toHaveLength(SAMPLE_ATTEMPTS - 1);
    });
  });

  test('runs with exactly the environment it is given', async () => {
    await expect(runSample(runner, bundle('readsEnvironment'), {}, { ONLY: '1' })).resolves.toBeDefined();
  });
});
