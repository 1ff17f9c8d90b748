import { pingKeysTable } from '../store/key-store';
import { publicRoute } from '../http/route';
import type { HealthResponse } from '../http/schemas';
import { logger } from '../telemetry/powertools';

export const handler = publicRoute({}, async () => {
  const started = performance.now();
  try {
    await pingKeysTable();
  } catch (error) {
    logger.error('health check: data store did not answer', { error: { name: (error as Error).name } });
    return { statusCode: 503, body: { status: 'unhealthy', redis: 'disconnected', latency: elapsedMs(started), timestamp: Date.now() } satisfies HealthResponse };
  }
  return { statusCode: 200, body: { status: 'healthy', redis: 'connected', latency: elapsedMs(started), timestamp: Date.now() } satisfies HealthResponse };
});

const elapsedMs = (started: number): number => Math.round(performance.now() - started);
