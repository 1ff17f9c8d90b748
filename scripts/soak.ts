import { readFileSync } from 'node:fs';
import { KEY_CREATION_LIMIT, MAX_BODY_BYTES } from '#contract/limits';
import { freePort } from '#local/free-port';
import { api, dataFilling, freshClientAddress } from '#test/support/api';
import { startLocalServer, type LocalServer } from '#test/support/local-server';
import { startWebhookReceiver } from '#test/support/webhook-receiver';
import { processTree } from '#test/integration/support/processes';
import { percentile } from '#bench/stats';

/**
 * `npm run soak` (docs/soak.md): a steady, bounded load on local mode, every route, with latency and
 * memory per 30 s window. A paced loop rather than autocannon: each request of a session depends on
 * the one before it (a key, its secrets, their claims), which fixed request lists cannot express.
 */

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const RATE = Number(process.env.SOAK_RATE ?? 10);
const WINDOW_MS = 30_000;
const MEMORY_SAMPLE_MS = 5_000;
/** Every LARGE_EVERY-th session stores 1 MiB, every HUGE_EVERY-th nearly the 5 MiB limit. */
const LARGE_EVERY = 10;
const HUGE_EVERY = 40;
const SMALL_BYTES = 1024;
const LARGE_BYTES = 1024 * 1024;
const HUGE_BYTES = MAX_BODY_BYTES - 1024;

interface Sample {
  atMs: number;
  ms: number;
  ok: boolean;
}

interface MemorySample {
  atMs: number;
  /** Resident memory in MiB by process name (node, java), summed over local mode's tree. */
  rssMiB: Record<string, number>;
}

interface Session {
  baseUrl: string;
  webhook: string;
  dataBytes: number;
  key?: string;
  secrets: string[];
  /** The index of its next step. */
  step: number;
}

/** One step of a session: the request it sends, and the status that means it went right. */
type Step = (session: Session) => Promise<{ status: number; expected: number }>;

const send = (session: Session, method: string, path: string, json?: unknown, address?: string) =>
  api(method, path, {
    baseUrl: session.baseUrl,
    ...(session.key ? { key: session.key } : {}),
    ...(json === undefined ? {} : { json }),
    ...(address ? { localAddress: address } : {}),
  });

const expectStatus =
  (expected: number, method: string, path: (session: Session) => string, json?: (session: Session) => unknown): Step =>
  async (session) => ({ status: (await send(session, method, path(session), json?.(session))).status, expected });

const createSecret: Step = async (session) => {
  const response = await send(session, 'POST', '/secrets', { data: dataFilling(session.dataBytes), views: 2 });
  if (response.status === 201) session.secrets.push(String(response.body.id));
  return { status: response.status, expected: 201 };
};

const secret = (index: number) => (session: Session) => `/secrets/${session.secrets[index]}`;

/** A key's life, on every route: 12 requests. */
const SESSION_STEPS: readonly Step[] = [
  async (session) => {
    const response = await send(session, 'POST', '/keys', { webhook: session.webhook }, freshClientAddress());
    session.key = String(response.body.key);
    return { status: response.status, expected: 201 };
  },
  expectStatus(200, 'GET', () => '/health'),
  expectStatus(200, 'GET', () => '/keys'),
  expectStatus(
    200,
    'PATCH',
    () => '/keys',
    (session) => ({ webhook: session.webhook }),
  ),
  createSecret,
  createSecret,
  expectStatus(200, 'GET', secret(0)),
  expectStatus(200, 'GET', secret(0)),
  // Its last view was taken: gone.
  expectStatus(404, 'GET', secret(0)),
  expectStatus(200, 'DELETE', secret(1)),
  expectStatus(404, 'GET', secret(1)),
  expectStatus(200, 'DELETE', () => '/keys'),
];

/** What each process of local mode's tree is, from its command line. */
function roleOf(command: string): string {
  if (command.includes('webhook-pipeline-entry')) return 'pipeline';
  if (command.startsWith('java')) return 'DynamoDB Local';
  return 'local mode';
}

/** Resident memory (MiB) of local mode's processes: `root` and all beneath it, by role. */
function rssOfTree(root: number): Record<string, number> {
  const byName: Record<string, number> = {};
  for (const { pid, command } of processTree(root)) {
    try {
      const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      byName[roleOf(command)] = (byName[roleOf(command)] ?? 0) + kib / 1024;
    } catch {
      // Ended between the listing and the read.
    }
  }
  return byName;
}

async function runLoad(server: LocalServer, webhook: string): Promise<{ samples: Sample[]; memory: MemorySample[]; errors: string[] }> {
  const samples: Sample[] = [];
  const memory: MemorySample[] = [];
  const errors: string[] = [];
  const started = performance.now();
  const at = (): number => performance.now() - started;
  const root = server.child.pid as number;
  const memoryTimer = setInterval(() => memory.push({ atMs: at(), rssMiB: rssOfTree(root) }), MEMORY_SAMPLE_MS);
  memory.push({ atMs: 0, rssMiB: rssOfTree(root) });

  let sessionsStarted = 0;
  const idle: Session[] = [];
  const inFlight = new Set<Promise<void>>();
  const total = SECONDS * RATE;
  for (let sent = 0; sent < total; sent++) {
    // Open loop: the n-th request leaves at n / RATE seconds, however long the others take.
    const due = (sent * 1000) / RATE;
    if (due > at()) await new Promise((resolve) => setTimeout(resolve, due - at()));
    let session = idle.pop();
    if (!session) {
      sessionsStarted += 1;
      const dataBytes = sessionsStarted % HUGE_EVERY === 0 ? HUGE_BYTES : sessionsStarted % LARGE_EVERY === 0 ? LARGE_BYTES : SMALL_BYTES;
      session = { baseUrl: server.baseUrl, webhook, dataBytes, secrets: [], step: 0 };
    }
    const current = session;
    const stepIndex = current.step;
    const step = SESSION_STEPS[stepIndex] as Step;
    const requestStarted = at();
    const request = step(current)
      .then(({ status, expected }) => {
        const ok = status === expected;
        if (!ok) errors.push(`step ${stepIndex}: ${status}, expected ${expected}`);
        return ok;
      })
      .catch((error: unknown) => {
        errors.push(`step ${stepIndex}: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      })
      .then((ok) => {
        samples.push({ atMs: requestStarted, ms: at() - requestStarted, ok });
        // A session whose step failed is dropped: its next steps would fail for that reason alone.
        current.step += 1;
        if (ok && current.step < SESSION_STEPS.length) idle.push(current);
        inFlight.delete(request);
      });
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  clearInterval(memoryTimer);
  memory.push({ atMs: at(), rssMiB: rssOfTree(root) });
  return { samples, memory, errors };
}

const fixed = (value: number, digits = 1): string => (Number.isNaN(value) ? '-' : value.toFixed(digits));

function report(samples: readonly Sample[], memory: readonly MemorySample[], errors: readonly string[]): string {
  const windows = Math.ceil((SECONDS * 1000) / WINDOW_MS);
  const names = [...new Set(memory.flatMap((sample) => Object.keys(sample.rssMiB)))].sort();
  const lines = [
    `| window | requests | errors | p50 ms | p99 ms | ${names.map((name) => `RSS ${name} MiB`).join(' | ')} |`,
    `| --- | ---: | ---: | ---: | ---: | ${names.map(() => '---:').join(' | ')} |`,
  ];
  for (let window = 0; window < windows; window++) {
    const [from, to] = [window * WINDOW_MS, (window + 1) * WINDOW_MS];
    const inWindow = samples.filter((sample) => sample.atMs >= from && sample.atMs < to);
    const latencies = inWindow.map((sample) => sample.ms);
    // The last memory reading of the window: what the processes hold once it has run.
    const reading = [...memory].reverse().find((sample) => sample.atMs < to) ?? memory[0];
    const rss = names.map((name) => fixed(reading?.rssMiB[name] ?? 0, 0));
    lines.push(
      `| ${from / 1000}-${to / 1000} s | ${inWindow.length} | ${inWindow.filter((sample) => !sample.ok).length} | ` +
        `${fixed(percentile(latencies, 50))} | ${fixed(percentile(latencies, 99))} | ${rss.join(' | ')} |`,
    );
  }
  const failed = samples.filter((sample) => !sample.ok).length;
  lines.push('', `${samples.length} requests, ${failed} errors, ${SECONDS} s at ${RATE} requests/s.`);
  if (errors.length > 0) lines.push('', 'First errors:', ...errors.slice(0, 10).map((error) => `- ${error}`));
  return lines.join('\n');
}

async function main(): Promise<void> {
  const receiver = await startWebhookReceiver();
  const server = await startLocalServer({
    // Its own DynamoDB Local, as `npm start` runs it, so its memory is counted too.
    DYNAMODB_ENDPOINT: '',
    DYNAMODB_LOCAL_PORT: String(await freePort()),
    DATA_DIR: '',
    KEYS_PER_IP_PER_HOUR: String(KEY_CREATION_LIMIT.maxPerIpPerHour),
    WEBHOOK_ALLOW_LOOPBACK: '1',
    LOCAL_REQUEST_LOG: 'off',
  });
  try {
    console.log(`soak: ${SECONDS} s at ${RATE} requests/s against ${server.baseUrl}`);
    const { samples, memory, errors } = await runLoad(server, receiver.url('/soak'));
    console.log(report(samples, memory, errors));
    console.log(`webhooks received: ${receiver.received('/soak').length}`);
    if (errors.length > 0) process.exitCode = 1;
  } finally {
    await server.stop();
    await receiver.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
