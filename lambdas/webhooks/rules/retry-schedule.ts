import { WEBHOOK_RETRIES, WEBHOOK_RETRY_JITTER, retryDelayMs } from '#lambdas/definitions/webhooks';

export interface FailedAttempt {
  /** 1 for the first attempt (SQS's receive count). */
  attempt: number;
  /** The receiver's Retry-After of a 429 or 503, in ms from now. */
  retryAfterMs?: number;
}

/**
 * How long a job waits after a failed attempt: the schedule's wait before the next retry, drawn
 * within ±10% of its nominal length, or the receiver's Retry-After brought within the schedule's
 * bounds (its first and its last nominal wait). After the last attempt no wait, since its next
 * receipt moves the job to the dead-letter queue. `random` is in [0, 1), as Math.random's.
 */
export function delayAfterFailedAttempt({ attempt, retryAfterMs }: FailedAttempt, baseMs: number, random: () => number = Math.random): number {
  if (attempt > WEBHOOK_RETRIES) return 0;
  if (retryAfterMs !== undefined) return Math.min(Math.max(retryAfterMs, retryDelayMs(baseMs, 1)), retryDelayMs(baseMs, WEBHOOK_RETRIES));
  return Math.round(retryDelayMs(baseMs, attempt) * (1 + WEBHOOK_RETRY_JITTER * (2 * random() - 1)));
}
