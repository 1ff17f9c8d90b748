import { pingKeysTable } from '../store/key-store';
import { logger } from '../telemetry/powertools';

export interface DataStoreHealth {
  connected: boolean;
  /** How long the check took, in whole ms. */
  latencyMs: number;
}

/** Whether the data store answers one cheap read, and how fast. */
export async function dataStoreHealth(): Promise<DataStoreHealth> {
  const started = performance.now();
  try {
    await pingKeysTable();
  } catch (error) {
    logger.error('health check: data store did not answer', { error: { name: (error as Error).name } });
    return { connected: false, latencyMs: elapsedMs(started) };
  }
  return { connected: true, latencyMs: elapsedMs(started) };
}

const elapsedMs = (started: number): number => Math.round(performance.now() - started);
