/**
 * Webhook signatures: `x-svc-signature: t=<ms>,v1=<hex>`, where hex is the HMAC-SHA256, keyed
 * with the UTF-8 bytes of the whole signing secret (`whsec_...`), of `<t>.<raw body>`. Beside it,
 * the Standard Webhooks signature (standardWebhookSignature), which that scheme's own libraries
 * verify. The service only signs; the client library's verifyWebhook (client/src/webhook.ts) is
 * the verifier, for receivers and for the tests.
 */
import { createHmac } from 'node:crypto';

export function signatureHeader(rawBody: string, secret: string, timestampMs: number): string {
  if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) {
    throw new RangeError('timestampMs must be a non-negative integer');
  }
  if (secret === '') throw new RangeError('the signing secret must not be empty');
  const v1 = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestampMs}.${rawBody}`, 'utf8').digest('hex');
  return `t=${timestampMs},v1=${v1}`;
}

/**
 * `webhook-signature` of the Standard Webhooks specification: `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp s>.<raw body>">`, keyed with the base64-decoded part of the secret after
 * `whsec_`. Our secrets' 32 alphanumeric characters are such base64 (24 bytes), so both
 * signatures come from the one `webhookSecret`.
 */
export function standardWebhookSignature(eventId: string, rawBody: string, secret: string, timestampSeconds: number): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  if (key.length === 0) throw new RangeError('the signing secret must not be empty');
  return `v1,${createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${rawBody}`, 'utf8').digest('base64')}`;
}
