import { lambdaContext } from '../local/lambda-context';
import { headInsertEvent } from './cold-start/events';
import { unsavedSecretHead } from './cold-start/fixtures';
import { freshKey } from './fixtures';
import { elapsedMs, median } from './stats';

/**
 * Warm handler time of the fan-out for a one-record batch (a new secret of a key without a
 * webhook: one BatchGetItem), invoked in this process against DynamoDB Local. It feeds the cost
 * estimate; delivery's time comes from local mode's own `webhook attempt` log lines.
 */
export async function measureFanOutMs(invocations: number): Promise<number> {
  const { handler } = await import('../lambdas/consumers/webhook-fan-out');
  const owner = await freshKey();
  const times: number[] = [];
  for (let i = 0; i < invocations; i++) {
    const event = headInsertEvent(unsavedSecretHead(owner));
    const started = performance.now();
    const response = await handler(event, lambdaContext('bench-fan-out', `bench-${i}`, 30_000));
    times.push(elapsedMs(started));
    if (response.batchItemFailures.length > 0) throw new Error('the fan-out reported a failure');
  }
  // The first invocations warm the client and the JIT: Lambda bills warm ones far more often.
  return median(times.slice(Math.floor(invocations / 3)));
}

/** Median `ms` of local mode's `webhook attempt` log lines (the delivery handler's own timing). */
export function deliveryMsFromLog(serverOutput: string): number {
  const times = [...serverOutput.matchAll(/"message":"webhook attempt".*?"durationMs":(\d+)/g)].map((match) => Number(match[1]));
  if (times.length === 0) throw new Error('local mode logged no webhook attempt');
  return median(times);
}
