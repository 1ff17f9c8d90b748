import autocannon from 'autocannon';

/** The warm-latency load: HTTP requests to local mode or the reference server, a few in flight at once. */

/**
 * autocannon ends a run at its next sample tick after the last response: at its default of 1 s,
 * each block would idle up to a second. Latencies are per response either way.
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
export function loadOverHttp(origin: string, requests: readonly HttpRequestSpec[], amount: number, connections: number): Promise<number[]> {
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
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
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
