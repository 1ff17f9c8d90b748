import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';

/** Two ways to put the same load on DynamoDB Local: HTTP requests through local mode, or direct calls. */

/**
 * autocannon ends a run at its next sample tick after the last response: at its default of 1 s,
 * each run idled up to a second after its last response, and that second's background CPU (local
 * mode's stream poller, DynamoDB Local's own threads) counted into the HTTP sides' CPU per request,
 * which runs of direct calls do not have. Latencies are per response either way.
 */
const SAMPLE_INTERVAL_MS = 10;

export interface HttpRequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Sends `amount` of `requests` (each at most once, in order) with autocannon over `connections`
 * keep-alive connections and returns each response's latency in ms. autocannon builds each
 * connection's next request ahead, so `requests` must hold `connections` spares. Any answer but
 * 2xx fails the run: a rate-limited or refused request would time another code path than the one named.
 */
export function loadOverHttp(
  origin: string,
  requests: readonly HttpRequestSpec[],
  amount: number,
  connections: number,
): Promise<number[]> {
  if (requests.length < amount + connections) throw new Error('loadOverHttp needs a spare request per connection');
  const latencies: number[] = [];
  const failures: number[] = [];
  let next = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections,
        amount,
        sampleInt: SAMPLE_INTERVAL_MS,
        requests: [{ setupRequest: (request) => ({ ...request, ...requests[next++] }) }],
      },
      (error, result) => {
        if (error) reject(error);
        else if (result.errors > 0) reject(new Error(`${result.errors} requests failed without a response`));
        else if (failures.length > 0) reject(new Error(`${failures.length} responses were not 2xx, e.g. ${failures[0]}`));
        else resolve(latencies);
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
      else failures.push(statusCode);
    });
  });
}

/** Runs `operations` (each once) `concurrency` at a time and returns each one's latency in ms. */
export async function loadDirect(operations: readonly (() => Promise<unknown>)[], concurrency: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < operations.length) {
      const operation = operations[next++] as () => Promise<unknown>;
      const started = performance.now();
      await operation();
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}
