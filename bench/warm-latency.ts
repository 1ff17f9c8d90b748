import { API_BASE_PATH } from '../lambdas/definitions/limits';
import { createApiKey } from '../lambdas/core/keys';
import { claim, createSecret, revoke } from '../lambdas/core/secrets';
import { authenticateAndCount, deleteKey, pingKeysTable, setWebhook } from '../lambdas/store/key-store';
import { dataFilling } from '../test/integration/support/api';
import { BENCH_KEYS_PER_IP_PER_HOUR } from './environment';
import { keysFor, makeKeys, makeSecrets, type FreshKey } from './fixtures';
import { cpuSpent, type CpuMeter, type CpuMs } from './cpu';
import { loadDirect, loadOverHttp, type HttpRequestSpec } from './load';
import { hundredths, percentile, verdict, type Verdict } from './stats';

/**
 * Warm latency per route under load: requests through local mode (HTTP server, API Gateway's
 * event, the route's handler) against the same DynamoDB calls made straight from this process
 * to the same DynamoDB Local, through the same store and domain functions. The difference is what
 * the API layer adds on top of DynamoDB.
 */

export const WARM_LATENCY_BUDGET = 1.25;
/** Requests in flight at once, on either side. */
export const CONNECTIONS = 4;
const WARM_UP_REQUESTS = 100;
/** Measured blocks per scenario, half on each side (a multiple of 4: direct, HTTP, HTTP, direct). */
const BLOCKS = 8;

interface Workload {
  requests: HttpRequestSpec[];
  operations: (() => Promise<unknown>)[];
}

interface LoadScenario {
  name: string;
  /** `http` requests (each with fresh fixtures where it consumes one) and `direct` operations. */
  prepare(http: number, direct: number): Promise<Workload>;
}

const SECRET_DATA_1KB = dataFilling(1024);
const SECRET_BODY_1KB = JSON.stringify({ data: SECRET_DATA_1KB });
const BENCH_WEBHOOK = 'https://hooks.example.com/bench';
const SITE_URL = 'http://localhost/bench';
const JSON_HEADERS = { 'content-type': 'application/json' };

const bearer = (fixture: FreshKey): Record<string, string> => ({ authorization: `Bearer ${fixture.key}` });
const path = (route: string): string => API_BASE_PATH + route;
const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));
/** Request `index` uses key `index mod keys`: each key stays under its rate limit. */
const keyAt = (keys: readonly FreshKey[], index: number): FreshKey => keys[index % keys.length] as FreshKey;

/** The authentication every keyed request starts with. */
const authenticate = (fixture: FreshKey): Promise<unknown> => authenticateAndCount(fixture.keyHash, Date.now());

/** A keyed route that needs no per-request fixture beyond the key. */
function keyedScenario(
  name: string,
  request: (key: FreshKey) => HttpRequestSpec,
  operation: (key: FreshKey) => Promise<unknown>,
  keysPerRequest: 'shared' | 'own',
): LoadScenario {
  return {
    name,
    prepare: async (http, direct) => {
      const keyCount = (count: number): number => (keysPerRequest === 'own' ? count : keysFor(count));
      const [httpKeys, directKeys] = await Promise.all([makeKeys(keyCount(http)), makeKeys(keyCount(direct))]);
      return {
        requests: times(http, (i) => request(keyAt(httpKeys, i))),
        operations: times(direct, (i) => () => operation(keyAt(directKeys, i))),
      };
    },
  };
}

/** A route on a secret of its own per request, 1 KB and 1 view. */
function secretScenario(
  name: string,
  request: (key: FreshKey, id: string) => HttpRequestSpec,
  operation: (key: FreshKey, id: string) => Promise<unknown>,
): LoadScenario {
  return {
    name,
    prepare: async (http, direct) => {
      const [httpKeys, directKeys] = await Promise.all([makeKeys(keysFor(http)), makeKeys(keysFor(direct))]);
      const [httpSecrets, directSecrets] = await Promise.all([
        makeSecrets(httpKeys, http, SECRET_DATA_1KB, 1),
        makeSecrets(directKeys, direct, SECRET_DATA_1KB, 1),
      ]);
      // Secret i is owned by key i mod keys (makeSecrets assigns owners in turn).
      return {
        requests: times(http, (i) => request(keyAt(httpKeys, i), httpSecrets[i] as string)),
        operations: times(direct, (i) => () => operation(keyAt(directKeys, i), directSecrets[i] as string)),
      };
    },
  };
}

export const LOAD_SCENARIOS: readonly LoadScenario[] = [
  {
    name: 'GET /health',
    prepare: async (http, direct) => ({
      requests: times(http, () => ({ method: 'GET', path: path('/health'), headers: {} })),
      operations: times(direct, () => pingKeysTable),
    }),
  },
  {
    name: 'POST /keys',
    // All from one client address on both sides, so the address's attempt log grows alike.
    prepare: async (http, direct) => ({
      requests: times(http, () => ({ method: 'POST', path: path('/keys'), headers: {} })),
      operations: times(direct, () => () =>
        createApiKey({ sourceIp: '192.0.2.1', webhook: undefined, perIpPerHour: BENCH_KEYS_PER_IP_PER_HOUR, now: Date.now() }),
      ),
    }),
  },
  keyedScenario(
    'GET /keys',
    (key) => ({ method: 'GET', path: path('/keys'), headers: bearer(key) }),
    authenticate,
    'shared',
  ),
  keyedScenario(
    'PATCH /keys',
    (key) => ({ method: 'PATCH', path: path('/keys'), headers: { ...bearer(key), ...JSON_HEADERS }, body: JSON.stringify({ webhook: BENCH_WEBHOOK }) }),
    async (key) => {
      await authenticate(key);
      await setWebhook(key.keyHash, BENCH_WEBHOOK, Date.now());
    },
    'shared',
  ),
  keyedScenario(
    'DELETE /keys',
    (key) => ({ method: 'DELETE', path: path('/keys'), headers: bearer(key) }),
    async (key) => {
      await authenticate(key);
      await deleteKey(key.keyHash);
    },
    'own',
  ),
  keyedScenario(
    'POST /secrets 1 KB',
    (key) => ({ method: 'POST', path: path('/secrets'), headers: { ...bearer(key), ...JSON_HEADERS }, body: SECRET_BODY_1KB }),
    async (key) => {
      await authenticate(key);
      await createSecret({ data: SECRET_DATA_1KB, ttl: '1d', type: 'text', views: 1 }, key.keyHash, SITE_URL, Date.now());
    },
    'shared',
  ),
  secretScenario(
    'GET /secrets/:id 1 KB (last view)',
    (key, id) => ({ method: 'GET', path: path(`/secrets/${id}`), headers: bearer(key) }),
    async (key, id) => {
      await authenticate(key);
      if (!(await claim(id, Date.now()))) throw new Error('direct claim found no secret');
    },
  ),
  secretScenario(
    'DELETE /secrets/:id 1 KB',
    (key, id) => ({ method: 'DELETE', path: path(`/secrets/${id}`), headers: bearer(key) }),
    async (key, id) => {
      await authenticate(key);
      if (!(await revoke(id, key.keyHash, Date.now()))) throw new Error('direct revoke found no secret');
    },
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
  p50: Verdict;
  p99: Verdict;
  /** Where the machine's CPU went on each side; absent off Linux. */
  cpu?: { http: CpuPerRequest; direct: CpuPerRequest };
}

const figures = (latencies: readonly number[]): LatencyFigures => ({
  p50: hundredths(percentile(latencies, 50)),
  p99: hundredths(percentile(latencies, 99)),
  samples: latencies.length,
});


/**
 * Each scenario: a warm-up on both sides, then the measured requests in blocks ordered direct,
 * HTTP, HTTP, direct (repeated), so that drift in the machine's load over the run falls on both alike.
 * The CPU each side's blocks cost every process is summed too: with more requests in flight than
 * cores, latency follows the CPU a request costs the whole machine.
 */
const NO_CPU: CpuMs = { bench: 0, localMode: 0, dynamoDb: 0 };

const addCpu = (sum: CpuMs, more: CpuMs): CpuMs => ({
  bench: sum.bench + more.bench,
  localMode: sum.localMode + more.localMode,
  dynamoDb: sum.dynamoDb + more.dynamoDb,
});

function perRequest(spent: CpuMs, requests: number): CpuPerRequest {
  const each = (ms: number): number => hundredths(ms / requests);
  return {
    bench: each(spent.bench),
    localMode: each(spent.localMode),
    dynamoDb: each(spent.dynamoDb),
    total: each(spent.bench + spent.localMode + spent.dynamoDb),
  };
}

export async function measureWarmLatency(
  origin: string,
  requestsPerScenario: number,
  cpu: CpuMeter | undefined,
): Promise<WarmLatencyResult[]> {
  const results: WarmLatencyResult[] = [];
  const block = Math.ceil((2 * requestsPerScenario) / BLOCKS);
  for (const scenario of LOAD_SCENARIOS) {
    const perSide = WARM_UP_REQUESTS + (BLOCKS / 2) * block;
    const workload = await scenario.prepare(perSide + (BLOCKS / 2 + 1) * CONNECTIONS, perSide);
    let requestsUsed = 0;
    let operationsUsed = 0;
    const overHttp = async (amount: number): Promise<number[]> => {
      // Each run is handed its own slice, spares included: a built but unsent request is never reused.
      const slice = workload.requests.slice(requestsUsed, requestsUsed + amount + CONNECTIONS);
      requestsUsed += amount + CONNECTIONS;
      return loadOverHttp(origin, slice, amount, CONNECTIONS).catch((error: Error) => {
        throw new Error(`${scenario.name}: ${error.message}`);
      });
    };
    const direct = (amount: number): Promise<number[]> => {
      const slice = workload.operations.slice(operationsUsed, operationsUsed + amount);
      operationsUsed += amount;
      return loadDirect(slice, CONNECTIONS);
    };
    await direct(WARM_UP_REQUESTS);
    await overHttp(WARM_UP_REQUESTS);
    const directLatencies: number[] = [];
    const httpLatencies: number[] = [];
    let directCpu = NO_CPU;
    let httpCpu = NO_CPU;
    for (let i = 0; i < BLOCKS; i++) {
      const before = cpu?.read();
      if (i % 4 === 0 || i % 4 === 3) {
        directLatencies.push(...(await direct(block)));
        if (before && cpu) directCpu = addCpu(directCpu, cpuSpent(before, cpu.read()));
      } else {
        httpLatencies.push(...(await overHttp(block)));
        if (before && cpu) httpCpu = addCpu(httpCpu, cpuSpent(before, cpu.read()));
      }
    }
    const http = figures(httpLatencies);
    const directFigures = figures(directLatencies);
    results.push({
      name: scenario.name,
      http,
      direct: directFigures,
      p50: verdict(http.p50, directFigures.p50, WARM_LATENCY_BUDGET),
      p99: verdict(http.p99, directFigures.p99, WARM_LATENCY_BUDGET),
      ...(cpu ? { cpu: { http: perRequest(httpCpu, httpLatencies.length), direct: perRequest(directCpu, directLatencies.length) } } : {}),
    });
  }
  return results;
}
