import { publicRoute } from '../http/route';
import type { HealthResponse } from '../http/schemas';
import { dataStoreHealth } from '../use-cases/health';

export const handler = publicRoute({}, async () => {
  const { connected, latencyMs } = await dataStoreHealth();
  const body: HealthResponse = connected
    ? { status: 'healthy', redis: 'connected', latency: latencyMs, timestamp: Date.now() }
    : { status: 'unhealthy', redis: 'disconnected', latency: latencyMs, timestamp: Date.now() };
  return { statusCode: connected ? 200 : 503, body };
});
