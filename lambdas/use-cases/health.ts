import { SLOW_STORE_MS } from '#contract/limits';
import { pingKeysTable } from '../store/key-store';
import { logger } from '../telemetry/powertools';

export interface DataStoreHealth {
  connected: boolean;
  /** Answered, and within SLOW_STORE_MS: fast enough for the routes' time budgets. */
  healthy: boolean;
  /** How long the check took, in whole ms. */
  latencyMs: number;
}

/** Whether the data store answers one cheap read, and fast enough (SLOW_STORE_MS). */
export async function dataStoreHealth(): Promise<DataStoreHealth> {
  const started = performance.now();
  try {
    await pingKeysTable();
  } catch (error) {
    logger.error('health check: data store did not answer', { error: { name: (error as Error).name } });
    return { connected: false, healthy: false, latencyMs: elapsedMs(started) };
  }
  const latencyMs = elapsedMs(started);
  return { connected: true, healthy: latencyMs <= SLOW_STORE_MS, latencyMs };
}

const elapsedMs = (started: number): number => Math.round(performance.now() - started);
