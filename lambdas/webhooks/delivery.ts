import { WEBHOOK_HEADERS, WEBHOOK_MAX_RESPONSE_BYTES, WEBHOOK_REQUEST_TIMEOUT_MS } from '../definitions/webhooks';
import { webhookTarget } from '../store/key-store';
import { claimDelivery } from '../store/delivery-claims';
import type { WebhookJob } from './rules/webhook-job';
import { postWebhook } from './outbound-http';
import { signatureHeader, standardWebhookSignature } from './signature';

export type DeliveryResult =
  | { outcome: 'delivered'; status: number }
  /** The owner key has no webhook now (removed, or the key revoked): nothing to deliver. */
  | { outcome: 'no webhook' }
  /** Another queue message of the same event holds its delivery (store/delivery-claims.ts): this copy is dropped. */
  | { outcome: 'duplicate' }
  /** 410 Gone: the receiver wants no more of this event; it is not retried. */
  | { outcome: 'gone'; status: 410 }
  | { outcome: 'failed'; reason: string; status?: number; retryAfterMs?: number };

const USER_AGENT = 'onetime-secrets-webhooks/1';
const GONE = 410;

/**
 * One attempt at delivering a job to its owner's webhook as it is set now, signed afresh with
 * the time of this attempt. postWebhook judges the URL again, and every address it resolves to.
 */
export async function attemptDelivery(job: WebhookJob, messageId: string, options: { allowLoopback: boolean }): Promise<DeliveryResult> {
  const target = await webhookTarget(job.owner);
  if (!target) return { outcome: 'no webhook' };
  const now = Date.now();
  if (!(await claimDelivery(job.eventId, messageId, now))) return { outcome: 'duplicate' };

  const body = JSON.stringify(job.event);
  const seconds = Math.floor(now / 1000);
  const result = await postWebhook(
    {
      url: target.url,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        [WEBHOOK_HEADERS.eventId]: job.eventId,
        [WEBHOOK_HEADERS.signature]: signatureHeader(body, target.signingSecret, now),
        [WEBHOOK_HEADERS.standardId]: job.eventId,
        [WEBHOOK_HEADERS.standardTimestamp]: String(seconds),
        [WEBHOOK_HEADERS.standardSignature]: standardWebhookSignature(job.eventId, body, target.signingSecret, seconds),
      },
    },
    { allowLoopback: options.allowLoopback, timeoutMs: WEBHOOK_REQUEST_TIMEOUT_MS, maxResponseBytes: WEBHOOK_MAX_RESPONSE_BYTES },
  );
  if (result.ok) return { outcome: 'delivered', status: result.status };
  return result.status === GONE ? { outcome: 'gone', status: GONE } : { outcome: 'failed', ...result };
}
