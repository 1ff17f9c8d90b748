import { performance } from 'node:perf_hooks';
import { API_BASE_PATH } from '../lambdas/definitions/limits';
import { NO_CPU, cpuSpent, cpuSum, type CpuMeter, type CpuMs } from './cpu';
import { BENCH_WEBHOOK, SECRET_DATA_1KB, type DirectOperation, runDirectOperation } from './direct-operations';
import { keysFor, makeKeys, makeSecrets, type FreshKey } from './fixtures';
import { loadDirect, loadOverHttp, type HttpRequestSpec } from './load';
import { hundredths, percentile, verdict, type Verdict } from './stats';

/**
 * Warm latency per route under load: requests through local mode (HTTP server, API Gateway's
 * event, the route's handler) against the same DynamoDB calls made straight from this process
 * to the same DynamoDB Local, through the same store and domain functions. The difference is what
 * the API layer adds on top of DynamoDB. A third side, the reference, makes the same calls behind
 * a bare HTTP server: the part of that difference that any HTTP API would pay on this machine.
 */

export const WARM_LATENCY_BUDGET = 1.25;
/** Requests in flight at once, on every side. */
export const CONNECTIONS = 4;
const WARM_UP_REQUESTS = 100;
/** The order of one round of measured blocks: each side twice, mirrored, so that drift falls on all alike. */
const ROUND = ['direct', 'http', 'reference', 'reference', 'http', 'direct'] as const;
const ROUNDS = 2;
const BLOCKS_PER_SIDE = ROUNDS * 2;

type Side = (typeof ROUND)[number];
const SIDES: readonly Side[] = ['direct', 'http', 'reference'];

/** Where local mode and the reference server listen. */
export interface Origins {
  localMode: string;
  reference: string;
}

interface Workload {
  requests: HttpRequestSpec[];
  direct: DirectOperation[];
  /** The same calls as the direct side's, made behind the reference server. */
  reference: DirectOperation[];
}

/** How many requests or operations each side takes, warm-up included. */
interface SideCounts {
  http: number;
  direct: number;
  reference: number;
}

interface LoadScenario {
  name: string;
  /** Each side's requests or operations, each with fresh fixtures where it consumes one. */
  prepare(counts: SideCounts): Promise<Workload>;
}

const SECRET_BODY_1KB = JSON.stringify({ data: SECRET_DATA_1KB });
const JSON_HEADERS = { 'content-type': 'application/json' };

const bearer = (fixture: FreshKey): Record<string, string> => ({ authorization: `Bearer ${fixture.key}` });
const path = (route: string): string => API_BASE_PATH + route;
const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));
/** Request `index` uses key `index mod keys`: each key stays under its rate limit. */
const keyAt = (keys: readonly FreshKey[], index: number): FreshKey => keys[index % keys.length] as FreshKey;

/** Operations made from one pool of fixtures, the direct side's first. */
const operationsBySide = (counts: SideCounts, make: (index: number) => DirectOperation): Pick<Workload, 'direct' | 'reference'> => {
  const operations = times(counts.direct + counts.reference, make);
  return { direct: operations.slice(0, counts.direct), reference: operations.slice(counts.direct) };
};

/** A keyed route that needs no per-request fixture beyond the key. */
function keyedScenario(
  name: string,
  request: (key: FreshKey) => HttpRequestSpec,
  operation: (keyHash: string) => DirectOperation,
  keysPerRequest: 'shared' | 'own',
): LoadScenario {
  return {
    name,
    prepare: async (counts) => {
      const keyCount = (count: number): number => (keysPerRequest === 'own' ? count : keysFor(count));
      const [httpKeys, operationKeys] = await Promise.all([
        makeKeys(keyCount(counts.http)),
        makeKeys(keyCount(counts.direct + counts.reference)),
      ]);
      return {
        requests: times(counts.http, (i) => request(keyAt(httpKeys, i))),
        ...operationsBySide(counts, (i) => operation(keyAt(operationKeys, i).keyHash)),
      };
    },
  };
}

/** A route on a secret of its own per request, 1 KB and 1 view. */
function secretScenario(
  name: string,
  request: (key: FreshKey, id: string) => HttpRequestSpec,
  operation: (keyHash: string, id: string) => DirectOperation,
): LoadScenario {
  return {
    name,
    prepare: async (counts) => {
      const operations = counts.direct + counts.reference;
      const [httpKeys, operationKeys] = await Promise.all([makeKeys(keysFor(counts.http)), makeKeys(keysFor(operations))]);
      const [httpSecrets, operationSecrets] = await Promise.all([
        makeSecrets(httpKeys, counts.http, SECRET_DATA_1KB, 1),
        makeSecrets(operationKeys, operations, SECRET_DATA_1KB, 1),
      ]);
      // Secret i is owned by key i mod keys (makeSecrets assigns owners in turn).
      return {
        requests: times(counts.http, (i) => request(keyAt(httpKeys, i), httpSecrets[i] as string)),
        ...operationsBySide(counts, (i) => operation(keyAt(operationKeys, i).keyHash, operationSecrets[i] as string)),
      };
    },
  };
}

export const LOAD_SCENARIOS: readonly LoadScenario[] = [
  {
    name: 'GET /health',
    prepare: async (counts) => ({
      requests: times(counts.http, () => ({ method: 'GET', path: path('/health'), headers: {} })),
      ...operationsBySide(counts, () => ({ call: 'ping' })),
    }),
  },
  {
    name: 'POST /keys',
    // Local mode's key creations all come from 127.0.0.1: each other side has an address of its
    // own too, so that every side's key-creation log grows alike.
    prepare: async (counts) => ({
      requests: times(counts.http, () => ({ method: 'POST', path: path('/keys'), headers: {} })),
      direct: times(counts.direct, () => ({ call: 'createKey', clientAddress: '192.0.2.1' })),
      reference: times(counts.reference, () => ({ call: 'createKey', clientAddress: '192.0.2.2' })),
    }),
  },
  keyedScenario(
    'GET /keys',
    (key) => ({ method: 'GET', path: path('/keys'), headers: bearer(key) }),
    (keyHash) => ({ call: 'readKey', keyHash }),
    'shared',
  ),
  keyedScenario(
    'PATCH /keys',
    (key) => ({ method: 'PATCH', path: path('/keys'), headers: { ...bearer(key), ...JSON_HEADERS }, body: JSON.stringify({ webhook: BENCH_WEBHOOK }) }),
    (keyHash) => ({ call: 'setWebhook', keyHash }),
    'shared',
  ),
  keyedScenario(
    'DELETE /keys',
    (key) => ({ method: 'DELETE', path: path('/keys'), headers: bearer(key) }),
    (keyHash) => ({ call: 'deleteKey', keyHash }),
    'own',
  ),
  keyedScenario(
    'POST /secrets 1 KB',
    (key) => ({ method: 'POST', path: path('/secrets'), headers: { ...bearer(key), ...JSON_HEADERS }, body: SECRET_BODY_1KB }),
    (keyHash) => ({ call: 'createSecret', keyHash }),
    'shared',
  ),
  secretScenario(
    'GET /secrets/:id 1 KB (last view)',
    (key, id) => ({ method: 'GET', path: path(`/secrets/${id}`), headers: bearer(key) }),
    (keyHash, id) => ({ call: 'claim', keyHash, id }),
  ),
  secretScenario(
    'DELETE /secrets/:id 1 KB',
    (key, id) => ({ method: 'DELETE', path: path(`/secrets/${id}`), headers: bearer(key) }),
    (keyHash, id) => ({ call: 'revoke', keyHash, id }),
  ),
];

export interface LatencyFigures {
  p50: number;
  p99: number;
  samples: number;
}

/** CPU ms per measured request, by process. */
export interface CpuPerRequest extends CpuMs {
  total: number;
}

export interface WarmLatencyResult {
  name: string;
  http: LatencyFigures;
  direct: LatencyFigures;
  reference: LatencyFigures;
  /** The budget's verdicts: local mode against direct. */
  p50: Verdict;
  p99: Verdict;
  /** Where the machine's CPU went on each side; absent off Linux. */
  cpu?: Record<Side, CpuPerRequest>;
}

const figures = (latencies: readonly number[]): LatencyFigures => ({
  p50: hundredths(percentile(latencies, 50)),
  p99: hundredths(percentile(latencies, 99)),
  samples: latencies.length,
});

function perRequest(spent: CpuMs, requests: number): CpuPerRequest {
  const each = (ms: number): number => hundredths(ms / requests);
  return {
    bench: each(spent.bench),
    localMode: each(spent.localMode),
    reference: each(spent.reference),
    dynamoDb: each(spent.dynamoDb),
    dynamoDbCompiler: each(spent.dynamoDbCompiler),
    total: each(spent.bench + spent.localMode + spent.reference + spent.dynamoDb),
  };
}

/** Hands out a list in slices, each item at most once. */
function slicer<T>(items: readonly T[]): (amount: number) => T[] {
  let used = 0;
  return (amount) => {
    const slice = items.slice(used, used + amount);
    used += amount;
    return slice;
  };
}

const referenceRequest = (operation: DirectOperation): HttpRequestSpec => ({
  method: 'POST',
  path: '/',
  headers: JSON_HEADERS,
  body: JSON.stringify(operation),
});

type SideRunners = Record<Side, (amount: number) => Promise<number[]>>;

/**
 * Prepares `scenario` for `perSide` requests on each side and returns each side's runner: it
 * sends the next `amount` of them and returns their latencies in ms.
 */
async function sideRunners(scenario: LoadScenario, origins: Origins, perSide: number): Promise<SideRunners> {
  // autocannon builds each connection's next request ahead: every HTTP run needs a spare per connection.
  const httpPerSide = perSide + (BLOCKS_PER_SIDE + 1) * CONNECTIONS;
  const workload = await scenario.prepare({ http: httpPerSide, direct: perSide, reference: httpPerSide });
  const nextRequests = slicer(workload.requests);
  const nextDirect = slicer(workload.direct);
  const nextReference = slicer(workload.reference.map(referenceRequest));
  const overHttp = (origin: string, take: (amount: number) => HttpRequestSpec[], amount: number): Promise<number[]> =>
    loadOverHttp(origin, take(amount + CONNECTIONS), amount, CONNECTIONS).catch((error: Error) => {
      throw new Error(`${scenario.name}: ${error.message}`);
    });
  return {
    direct: (amount) => loadDirect(nextDirect(amount).map((operation) => () => runDirectOperation(operation)), CONNECTIONS),
    http: (amount) => overHttp(origins.localMode, nextRequests, amount),
    reference: (amount) => overHttp(origins.reference, nextReference, amount),
  };
}

export interface WarmUpRound {
  seconds: number;
  /** What DynamoDB Local's JIT compiler threads spent in the round; absent off Linux. */
  compilerMs?: number;
}

export interface WarmUpResult {
  requestsPerRound: number;
  rounds: WarmUpRound[];
  /** Whether the last round's compiling fell under WARM_UP_SETTLED_SHARE of it; null off Linux. */
  settled: boolean | null;
}

/** A warm-up round whose JIT compiling took under this share of its time finds the JVM warm. */
export const WARM_UP_SETTLED_SHARE = 0.05;
const WARM_UP_REQUESTS_PER_ROUTE_AND_SIDE = 100;
const WARM_UP_MAX_ROUNDS = 8;

/**
 * Before anything is measured: rounds of every route on every side, until DynamoDB Local's JVM
 * has stopped compiling. A fresh JVM compiles its hot paths for its first tens of thousands of
 * requests, with up to a core of this machine's two; DynamoDB itself is never cold like that.
 * Without a CPU meter (off Linux) it runs every round.
 */
export async function warmUntilCompiled(origins: Origins, cpu: CpuMeter | undefined): Promise<WarmUpResult> {
  const rounds: WarmUpRound[] = [];
  let settled: boolean | null = cpu ? false : null;
  while (rounds.length < WARM_UP_MAX_ROUNDS && settled !== true) {
    const started = performance.now();
    const before = cpu?.read();
    for (const scenario of LOAD_SCENARIOS) {
      const run = await sideRunners(scenario, origins, WARM_UP_REQUESTS_PER_ROUTE_AND_SIDE);
      for (const side of SIDES) await run[side](WARM_UP_REQUESTS_PER_ROUTE_AND_SIDE);
    }
    const seconds = (performance.now() - started) / 1000;
    if (before && cpu) {
      const compilerMs = cpuSpent(before, cpu.read()).dynamoDbCompiler;
      rounds.push({ seconds: hundredths(seconds), compilerMs });
      settled = compilerMs <= WARM_UP_SETTLED_SHARE * seconds * 1000;
    } else rounds.push({ seconds: hundredths(seconds) });
  }
  return { requestsPerRound: WARM_UP_REQUESTS_PER_ROUTE_AND_SIDE * LOAD_SCENARIOS.length * SIDES.length, rounds, settled };
}

/**
 * Each scenario: a warm-up on every side, then the measured requests in blocks (see ROUND). The
 * CPU each side's blocks cost every process is summed too: with more requests in flight than
 * cores, latency follows the CPU a request costs the whole machine.
 */
export async function measureWarmLatency(origins: Origins, requestsPerScenario: number, cpu: CpuMeter | undefined): Promise<WarmLatencyResult[]> {
  const results: WarmLatencyResult[] = [];
  const block = Math.ceil(requestsPerScenario / BLOCKS_PER_SIDE);
  for (const scenario of LOAD_SCENARIOS) {
    const run = await sideRunners(scenario, origins, WARM_UP_REQUESTS + BLOCKS_PER_SIDE * block);
    const latencies: Record<Side, number[]> = { direct: [], http: [], reference: [] };
    const cpuBySide: Record<Side, CpuMs> = { direct: NO_CPU, http: NO_CPU, reference: NO_CPU };
    for (const side of SIDES) await run[side](WARM_UP_REQUESTS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ROUND) {
        const before = cpu?.read();
        latencies[side].push(...(await run[side](block)));
        if (before && cpu) cpuBySide[side] = cpuSum(cpuBySide[side], cpuSpent(before, cpu.read()));
      }
    }
    const http = figures(latencies.http);
    const direct = figures(latencies.direct);
    results.push({
      name: scenario.name,
      http,
      direct,
      reference: figures(latencies.reference),
      p50: verdict(http.p50, direct.p50, WARM_LATENCY_BUDGET),
      p99: verdict(http.p99, direct.p99, WARM_LATENCY_BUDGET),
      ...(cpu
        ? {
            cpu: {
              direct: perRequest(cpuBySide.direct, latencies.direct.length),
              http: perRequest(cpuBySide.http, latencies.http.length),
              reference: perRequest(cpuBySide.reference, latencies.reference.length),
            },
          }
        : {}),
    });
  }
  return results;
}
