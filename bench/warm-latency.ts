import { API_BASE_PATH } from '#contract/limits';
import { dataFilling } from '#test/support/api';
import { keysFor, makeKeys, makeSecrets, type FreshKey } from './fixtures';
import { loadOverHttp, type HttpRequestSpec } from './load';
import { BENCH_WEBHOOK, createSecretOperation, REFERENCE_CLIENT_ADDRESS, type ReferenceOperation } from './reference-operations';
import { hundredths, judge, percentile, ratio, repeated, type Judged, type Repeated, type RepeatedMeasurement } from './stats';
import { rotated, SIDES, type Side } from './turns';

/**
 * Warm latency per route under load: requests through local mode (HTTP server, API Gateway's
 * event, the route's handler) against the reference server making the same DynamoDB calls
 * (bench/reference-server.ts), both loaded alike by autocannon against the same DynamoDB Local.
 * The difference is what the API layer adds to the least any HTTP API over these calls costs.
 */

export const WARM_LATENCY_BUDGET = { p50: 1.1, p99: 1.25 } as const;
/** Requests in flight at once, on both sides. */
export const CONNECTIONS = 4;
/** Measured requests per route, side and repetition. */
export const REQUESTS_PER_REPETITION = 300;
/**
 * A repetition's requests come in rounds: a block of each side, back to back, the first side
 * turned around every round. Drift falls on both sides alike, and the report can resample whole
 * rounds for an interval (bench/stats.ts, roundsPercentileRatios).
 */
export const ROUNDS_PER_REPETITION = 6;
const REQUESTS_PER_ROUND = REQUESTS_PER_REPETITION / ROUNDS_PER_REPETITION;
/** Untimed, per route and side, before each repetition's rounds: the route's own code paths get hot again. */
const ROUTE_WARM_UP_REQUESTS = 25;

/** Where local mode and the reference server listen. */
export interface Origins {
  localMode: string;
  reference: string;
}

/** Each side's requests for one repetition, fresh fixtures for each where a request consumes one. */
interface Workload {
  localMode: HttpRequestSpec[];
  reference: ReferenceOperation[];
}

interface LoadScenario {
  name: string;
  prepare(perSide: number): Promise<Workload>;
}

const SECRET_DATA_1KB = dataFilling(1024);
const SECRET_BODY_1KB = JSON.stringify({ data: SECRET_DATA_1KB });
const JSON_HEADERS = { 'content-type': 'application/json' };

const bearer = (fixture: FreshKey): Record<string, string> => ({ authorization: `Bearer ${fixture.key}` });
const apiPath = (route: string): string => API_BASE_PATH + route;
const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));
/** Request `index` uses key `index mod keys`: each key stays under its rate limit. */
const keyAt = (keys: readonly FreshKey[], index: number): FreshKey => keys[index % keys.length] as FreshKey;

/** A keyed route that needs no per-request fixture beyond the key. */
function keyedScenario(
  name: string,
  request: (key: FreshKey) => HttpRequestSpec,
  operation: (keyHash: string) => ReferenceOperation,
  keysPerRequest: 'shared' | 'own',
): LoadScenario {
  return {
    name,
    prepare: async (perSide) => {
      const keyCount = keysPerRequest === 'own' ? perSide : keysFor(perSide);
      const [localKeys, referenceKeys] = await Promise.all([makeKeys(keyCount), makeKeys(keyCount)]);
      return {
        localMode: times(perSide, (i) => request(keyAt(localKeys, i))),
        reference: times(perSide, (i) => operation(keyAt(referenceKeys, i).keyHash)),
      };
    },
  };
}

/** A route on a secret of its own per request, 1 KB and 1 view. */
function secretScenario(
  name: string,
  request: (key: FreshKey, id: string) => HttpRequestSpec,
  operation: (keyHash: string, id: string) => ReferenceOperation,
): LoadScenario {
  return {
    name,
    prepare: async (perSide) => {
      const [localKeys, referenceKeys] = await Promise.all([makeKeys(keysFor(perSide)), makeKeys(keysFor(perSide))]);
      const [localSecrets, referenceSecrets] = await Promise.all([
        makeSecrets(localKeys, perSide, SECRET_DATA_1KB, 1),
        makeSecrets(referenceKeys, perSide, SECRET_DATA_1KB, 1),
      ]);
      // Secret i is owned by key i mod keys (makeSecrets assigns owners in turn).
      return {
        localMode: times(perSide, (i) => request(keyAt(localKeys, i), localSecrets[i] as string)),
        reference: times(perSide, (i) => operation(keyAt(referenceKeys, i).keyHash, referenceSecrets[i] as string)),
      };
    },
  };
}

export const LOAD_SCENARIOS: readonly LoadScenario[] = [
  {
    name: 'GET /health',
    prepare: (perSide) =>
      Promise.resolve({
        localMode: times(perSide, () => ({ method: 'GET', path: apiPath('/health'), headers: {} })),
        reference: times(perSide, () => ({ call: 'ping' })),
      }),
  },
  {
    name: 'POST /keys',
    // Local mode's key creations all come from 127.0.0.1; the reference's from an address of its
    // own, so that both sides' key-creation logs grow alike.
    prepare: (perSide) =>
      Promise.resolve({
        localMode: times(perSide, () => ({ method: 'POST', path: apiPath('/keys'), headers: {} })),
        reference: times(perSide, () => ({ call: 'createKey', clientAddress: REFERENCE_CLIENT_ADDRESS })),
      }),
  },
  keyedScenario(
    'GET /keys',
    (key) => ({ method: 'GET', path: apiPath('/keys'), headers: bearer(key) }),
    (keyHash) => ({ call: 'readKey', keyHash }),
    'shared',
  ),
  keyedScenario(
    'PATCH /keys',
    (key) => ({
      method: 'PATCH',
      path: apiPath('/keys'),
      headers: { ...bearer(key), ...JSON_HEADERS },
      body: JSON.stringify({ webhook: BENCH_WEBHOOK }),
    }),
    (keyHash) => ({ call: 'setWebhook', keyHash }),
    'shared',
  ),
  keyedScenario(
    'DELETE /keys',
    (key) => ({ method: 'DELETE', path: apiPath('/keys'), headers: bearer(key) }),
    (keyHash) => ({ call: 'deleteKey', keyHash }),
    'own',
  ),
  keyedScenario(
    'POST /secrets 1 KB',
    (key) => ({ method: 'POST', path: apiPath('/secrets'), headers: { ...bearer(key), ...JSON_HEADERS }, body: SECRET_BODY_1KB }),
    (keyHash) => createSecretOperation(keyHash, SECRET_DATA_1KB, SECRET_BODY_1KB),
    'shared',
  ),
  secretScenario(
    'GET /secrets/:id 1 KB (last view)',
    (key, id) => ({ method: 'GET', path: apiPath(`/secrets/${id}`), headers: bearer(key) }),
    (keyHash, id) => ({ call: 'claim', keyHash, id }),
  ),
  secretScenario(
    'DELETE /secrets/:id 1 KB',
    (key, id) => ({ method: 'DELETE', path: apiPath(`/secrets/${id}`), headers: bearer(key) }),
    (keyHash, id) => ({ call: 'revoke', keyHash, id }),
  ),
];

/** One round's latencies, ms: a block of each side. */
export type WarmLatencyRound = Record<Side, number[]>;

export interface WarmLatencyResult {
  name: string;
  /** ms: each repetition's percentile, over the repetitions. */
  localMode: { p50: Repeated; p99: Repeated };
  reference: { p50: Repeated; p99: Repeated };
  /** local mode ÷ reference, one ratio per repetition. */
  p50: Judged;
  p99: Judged;
  /** Every measured latency by round, all repetitions in order: what docs/performance.json pools over the runs. */
  rounds: WarmLatencyRound[];
}

const referenceRequest = (operation: ReferenceOperation): HttpRequestSpec => ({
  method: 'POST',
  path: '/',
  headers: JSON_HEADERS,
  body: JSON.stringify(operation),
});

/** Hands out a list in slices, each item at most once. */
function slicer<T>(items: readonly T[]): (amount: number) => T[] {
  let used = 0;
  return (amount) => {
    const slice = items.slice(used, used + amount);
    used += amount;
    return slice;
  };
}

/** `rounds` rounds of `scenario` after a warm-up of the route on both sides. */
async function runScenario(scenario: LoadScenario, origins: Origins, rounds: number): Promise<WarmLatencyRound[]> {
  // autocannon builds each connection's next request ahead: every run needs a spare per connection.
  const runsPerSide = rounds + 1;
  const workload = await scenario.prepare(ROUTE_WARM_UP_REQUESTS + rounds * REQUESTS_PER_ROUND + runsPerSide * CONNECTIONS);
  const next = { localMode: slicer(workload.localMode), reference: slicer(workload.reference.map(referenceRequest)) };
  const run = async (side: Side, amount: number): Promise<number[]> => {
    const latencies = await loadOverHttp(origins[side], next[side](amount + CONNECTIONS), amount, CONNECTIONS).catch((error: Error) => {
      throw new Error(`${scenario.name}, ${side}: ${error.message}`);
    });
    return latencies.map(hundredths);
  };
  await run('localMode', ROUTE_WARM_UP_REQUESTS);
  await run('reference', ROUTE_WARM_UP_REQUESTS);
  const measured: WarmLatencyRound[] = [];
  for (let round = 0; round < rounds; round++) {
    const latencies: WarmLatencyRound = { localMode: [], reference: [] };
    for (const side of rotated(SIDES, round)) latencies[side] = await run(side, REQUESTS_PER_ROUND);
    measured.push(latencies);
  }
  return measured;
}

/**
 * Every route on both sides, unmeasured, `passes` times over, `rounds` rounds each: a fresh
 * DynamoDB Local's JVM compiles its hot paths for its first tens of thousands of requests
 * (DynamoDB itself is never cold like that).
 */
export async function warmUp(origins: Origins, passes: number, rounds: number): Promise<void> {
  for (let pass = 0; pass < passes; pass++) {
    for (const scenario of LOAD_SCENARIOS) await runScenario(scenario, origins, rounds);
  }
}

interface Percentiles {
  p50: number;
  p99: number;
}

const percentiles = (latencies: readonly number[]): Percentiles => ({
  p50: hundredths(percentile(latencies, 50)),
  p99: hundredths(percentile(latencies, 99)),
});

export function prepareWarmLatency(origins: Origins): RepeatedMeasurement<WarmLatencyResult[]> {
  const repetitions: WarmLatencyRound[][][] = LOAD_SCENARIOS.map(() => []);
  return {
    measureOnce: async () => {
      for (const [index, scenario] of LOAD_SCENARIOS.entries()) {
        repetitions[index]?.push(await runScenario(scenario, origins, ROUNDS_PER_REPETITION));
      }
    },
    result: () =>
      LOAD_SCENARIOS.map((scenario, index) => {
        const measured = (repetitions[index] ?? []).map((rounds) => ({
          localMode: percentiles(rounds.flatMap((round) => round.localMode)),
          reference: percentiles(rounds.flatMap((round) => round.reference)),
        }));
        const figure = (side: Side, p: keyof Percentiles): Repeated => repeated(measured.map((each) => each[side][p]));
        const ratios = (p: keyof Percentiles): number[] => measured.map((each) => ratio(each.localMode[p], each.reference[p]));
        return {
          name: scenario.name,
          localMode: { p50: figure('localMode', 'p50'), p99: figure('localMode', 'p99') },
          reference: { p50: figure('reference', 'p50'), p99: figure('reference', 'p99') },
          p50: judge(ratios('p50'), WARM_LATENCY_BUDGET.p50),
          p99: judge(ratios('p99'), WARM_LATENCY_BUDGET.p99),
          rounds: (repetitions[index] ?? []).flat(),
        };
      }),
    stop: () => Promise.resolve(),
  };
}
