import { STORE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '#contract/limits';
import { publicRoute } from '../http/route';
import type { HealthResponse } from '#contract/schemas';
import { dataStoreHealth } from '../use-cases/health';

export const handler = publicRoute({}, async () => {
  const { connected, healthy, latencyMs } = await dataStoreHealth();
  // A store that answers, but slower than the routes can bear, is connected and unhealthy.
  const body: HealthResponse = {
    status: healthy ? 'healthy' : 'unhealthy',
    redis: connected ? 'connected' : 'disconnected',
    latency: latencyMs,
    timestamp: Date.now(),
  };
  return { statusCode: healthy ? 200 : 503, ...(healthy ? {} : { headers: { 'retry-after': String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS) } }), body };
});
