/**
 * Webhook signatures: `x-svc-signature: t=<ms>,v1=<hex>`, where hex is the HMAC-SHA256, keyed
 * with the UTF-8 bytes of the whole signing secret (`whsec_...`), of `<t>.<raw body>`. Beside it,
 * the Standard Webhooks signature (standardWebhookSignature), which that scheme's own libraries
 * verify; receivers using one of them need nothing from this file.
 *
 * This file imports nothing but `node:crypto`, so a receiver can copy it into its own code as is.
 * Verify the raw body exactly as received, before any JSON parsing:
 *
 *   import { verifyWebhookSignature } from './signature';
 *
 *   // e.g. Express: app.post('/hook', express.raw({ type: 'application/json' }), (req, res) => {
 *   if (!verifyWebhookSignature(req.body, req.get('x-svc-signature'), process.env.WEBHOOK_SECRET ?? '')) {
 *     return res.sendStatus(400);
 *   }
 *   const event = JSON.parse(req.body.toString('utf8'));
 *
 * `t` is in MILLISECONDS since the epoch, not seconds: a check written for seconds-based
 * schemes (`now_s - t <= 300`) would accept our timestamps forever.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signatures older (or further in the future) than this are rejected by default: 5 minutes. */
export const SIGNATURE_TOLERANCE_MS = 300_000;

const TIMESTAMP = /^\d+$/;
const V1_SIGNATURE = /^[0-9a-f]{64}$/;

const hmac = (timestamp: string, rawBody: string | Uint8Array, secret: string): Buffer =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`, 'utf8').update(rawBody).digest();

export function signatureHeader(rawBody: string, secret: string, timestampMs: number): string {
  if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) {
    throw new RangeError('timestampMs must be a non-negative integer');
  }
  if (secret === '') throw new RangeError('the signing secret must not be empty');
  const t = String(timestampMs);
  return `t=${t},v1=${hmac(t, rawBody, secret).toString('hex')}`;
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

type ParsedHeader = { timestamp: string; signatures: Buffer[] };

/** Any part that is not `key=value`, a missing or repeated `t`, or a malformed `v1` rejects the header. */
function parseHeader(header: string): ParsedHeader | undefined {
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) return undefined;
    const key = part.slice(0, separator);
    const value = part.slice(separator + 1);
    if (key === 't') {
      if (timestamp !== undefined || !TIMESTAMP.test(value)) return undefined;
      timestamp = value;
    } else if (key === 'v1') {
      if (!V1_SIGNATURE.test(value)) return undefined;
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other schemes are ignored, so that a new one can be sent alongside v1.
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: { toleranceMs?: number; now?: number } = {},
): boolean {
  // With an empty secret anyone could sign: a missing configuration value must not accept forgeries.
  if (typeof header !== 'string' || secret === '') return false;
  const parsed = parseHeader(header);
  if (parsed === undefined) return false;

  const age = Math.abs((options.now ?? Date.now()) - Number(parsed.timestamp));
  // Written so that NaN (a bad `now` or tolerance) rejects rather than accepts.
  if (!(age <= (options.toleranceMs ?? SIGNATURE_TOLERANCE_MS))) return false;

  const expected = hmac(parsed.timestamp, rawBody, secret);
  return parsed.signatures.some((candidate) => timingSafeEqual(expected, candidate));
}
