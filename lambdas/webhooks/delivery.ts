import { WEBHOOK_HEADERS, WEBHOOK_MAX_RESPONSE_BYTES, WEBHOOK_REQUEST_TIMEOUT_MS, WEBHOOK_RETRIES, retryDelayMs } from '../definitions/webhooks';
import { webhookTarget } from '../store/key-store';
import type { WebhookJob } from './rules/webhook-job';
import { postWebhook } from './outbound-http';
import { signatureHeader } from './signature';

export type DeliveryResult =
  | { outcome: 'delivered'; status: number }
  /** The owner key has no webhook now (removed, or the key revoked): nothing to deliver. */
  | { outcome: 'no webhook' }
  | { outcome: 'failed'; reason: string; status?: number };

const USER_AGENT = 'onetime-secrets-webhooks/1';

/**
 * One attempt at delivering a job to its owner's webhook as it is set now, signed afresh with
 * the time of this attempt. postWebhook judges the URL again, and every address it resolves to.
 */
export async function attemptDelivery(job: WebhookJob, options: { allowLoopback: boolean }): Promise<DeliveryResult> {
  const target = await webhookTarget(job.owner);
  if (!target) return { outcome: 'no webhook' };

  const body = JSON.stringify(job.event);
  const result = await postWebhook(
    {
      url: target.url,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        [WEBHOOK_HEADERS.eventId]: job.eventId,
        [WEBHOOK_HEADERS.signature]: signatureHeader(body, target.signingSecret, Date.now()),
      },
    },
    { allowLoopback: options.allowLoopback, timeoutMs: WEBHOOK_REQUEST_TIMEOUT_MS, maxResponseBytes: WEBHOOK_MAX_RESPONSE_BYTES },
  );
  return result.ok ? { outcome: 'delivered', status: result.status } : { outcome: 'failed', ...result };
}

/**
 * How long a job waits after its `attempt`-th attempt failed: base × 2^(n−1) before the n-th
 * retry; after the last attempt no wait, since its next receipt moves it to the dead-letter queue.
 */
export const delayAfterFailedAttempt = (attempt: number, retryBaseMs: number): number =>
  attempt <= WEBHOOK_RETRIES ? retryDelayMs(retryBaseMs, attempt) : 0;
