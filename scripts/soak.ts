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
/** Every LARGE_EVERY-th session stores 1 MiB, every HUGE_EVERY-th nearly the 5 MiB limit. */
const LARGE_EVERY = 10;
const HUGE_EVERY = 40;
const SMALL_BYTES = 1024;
const LARGE_BYTES = 1024 * 1024;
const HUGE_BYTES = MAX_BODY_BYTES - 1024;

/** A request: when it left and how long it took (ms), and whether it went right. */
type Sample = { atMs: number; ms: number; ok: boolean };

/** Resident memory in MiB by role (local mode, pipeline, DynamoDB Local), summed over local mode's tree. */
type MemorySample = Record<string, number>;

/** A key's life: its key and secrets once made, and the index of its next step. */
type Session = { baseUrl: string; webhook: string; dataBytes: number; key?: string; secrets: string[]; step: number };

/** One request of a session: its method and path, its body, the status that means it went right. */
type Step = { method: string; path: string | ((session: Session) => string); json?: (session: Session) => unknown; expected: number };

const secret = (index: number) => (session: Session) => `/secrets/${session.secrets[index]}`;
const createSecret: Step = {
  method: 'POST',
  path: '/secrets',
  json: (session) => ({ data: dataFilling(session.dataBytes), views: 2 }),
  expected: 201,
};

/** A key's life, on every route: 12 requests. */
const SESSION_STEPS: readonly Step[] = [
  { method: 'POST', path: '/keys', json: (session) => ({ webhook: session.webhook }), expected: 201 },
  { method: 'GET', path: '/health', expected: 200 },
  { method: 'GET', path: '/keys', expected: 200 },
  { method: 'PATCH', path: '/keys', json: (session) => ({ webhook: session.webhook }), expected: 200 },
  createSecret,
  createSecret,
  { method: 'GET', path: secret(0), expected: 200 },
  { method: 'GET', path: secret(0), expected: 200 },
  // Its last view was taken: gone.
  { method: 'GET', path: secret(0), expected: 404 },
  { method: 'DELETE', path: secret(1), expected: 200 },
  { method: 'GET', path: secret(1), expected: 404 },
  { method: 'DELETE', path: '/keys', expected: 200 },
];

/** Sends the session's step; remembers the key and the secrets it makes; answers what went wrong, if anything. */
async function send(session: Session, { method, path, json, expected }: Step): Promise<string | undefined> {
  const creatingKey = method === 'POST' && path === '/keys';
  const response = await api(method, typeof path === 'string' ? path : path(session), {
    baseUrl: session.baseUrl,
    ...(session.key ? { key: session.key } : {}),
    ...(json ? { json: json(session) } : {}),
    ...(creatingKey ? { localAddress: freshClientAddress() } : {}),
  });
  if (creatingKey) session.key = String(response.body.key);
  else if (path === '/secrets' && response.status === 201) session.secrets.push(String(response.body.id));
  return response.status === expected ? undefined : `${response.status}, expected ${expected}`;
}

/** Resident memory (MiB) of local mode's processes: `root` and all beneath it, by role. */
function rssOfTree(root: number): MemorySample {
  const byName: Record<string, number> = {};
  for (const { pid, command } of processTree(root)) {
    try {
      const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      const role = command.includes('webhook-pipeline-entry') ? 'pipeline' : command.startsWith('java') ? 'DynamoDB Local' : 'local mode';
      byName[role] = (byName[role] ?? 0) + kib / 1024;
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
  // At the end of each window: what the processes hold once it has run.
  const memoryTimer = setInterval(() => memory.push(rssOfTree(root)), WINDOW_MS);

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
    const requestStarted = at();
    const request = send(current, SESSION_STEPS[stepIndex] as Step)
      .catch((error: unknown) => (error instanceof Error ? error.message : String(error)))
      .then((failure) => {
        const ok = failure === undefined;
        if (!ok) errors.push(`step ${stepIndex}: ${failure}`);
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
  memory.push(rssOfTree(root));
  return { samples, memory, errors };
}

const fixed = (value: number, digits = 1): string => (Number.isNaN(value) ? '-' : value.toFixed(digits));

function report(samples: readonly Sample[], memory: readonly MemorySample[], errors: readonly string[]): string {
  const windows = Math.ceil((SECONDS * 1000) / WINDOW_MS);
  const names = [...new Set(memory.flatMap((sample) => Object.keys(sample)))].sort();
  const lines = [
    `| window | requests | errors | p50 ms | p99 ms | ${names.map((name) => `RSS ${name} MiB`).join(' | ')} |`,
    `| --- | ---: | ---: | ---: | ---: | ${names.map(() => '---:').join(' | ')} |`,
  ];
  for (let window = 0; window < windows; window++) {
    const [from, to] = [window * WINDOW_MS, (window + 1) * WINDOW_MS];
    const inWindow = samples.filter((sample) => sample.atMs >= from && sample.atMs < to);
    const latencies = inWindow.map((sample) => sample.ms);
    const reading = memory[window] ?? memory.at(-1);
    const rss = names.map((name) => fixed(reading?.[name] ?? 0, 0));
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
