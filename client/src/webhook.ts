/**
 * Checks a webhook delivery as a receiver must: `x-svc-signature: t=<ms>,v1=<hex>`, hex being the
 * HMAC-SHA256, keyed with the UTF-8 bytes of the whole `whsec_...` secret, of `<t>.<raw body>`.
 *
 * The one verifier of the project (the service only signs, lambdas/webhooks/signature.ts; the
 * tests verify with this): WebCrypto, so that it runs in Node, browsers, Deno and workers.
 *
 * `t` is in MILLISECONDS since the epoch: a check written for seconds (`now_s - t <= 300`) would
 * accept a signature forever.
 */

import { cryptoBytes } from './envelope';
import { utf8 } from './utf8';

/** The spec's receiver-side tolerance: 5 minutes. */
export const WEBHOOK_TOLERANCE_MS = 300_000;

const TIMESTAMP = /^\d+$/;
const V1_SIGNATURE = /^[0-9a-f]{64}$/;

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = parseInt(hex.slice(2 * index, 2 * index + 2), 16);
  return bytes;
}

/** Any part that is not `key=value`, a missing or repeated `t`, or a malformed `v1` rejects the header. */
function parseHeader(header: string): { timestamp: string; signatures: Uint8Array[] } | undefined {
  let timestamp: string | undefined;
  const signatures: Uint8Array[] = [];
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
      signatures.push(hexBytes(value));
    }
    // Other schemes are ignored, so that a new one can be sent alongside v1.
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

export interface VerifyOptions {
  /** 300,000 ms by default. */
  toleranceMs?: number;
  /** The receiver's clock, ms since the epoch; Date.now() by default. */
  now?: number;
}

/** Whether `rawBody` (exactly as received, before any JSON parsing) was signed with `secret` within the tolerance. */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): Promise<boolean> {
  // With an empty secret anyone could sign: a missing configuration value must not accept forgeries.
  if (typeof signatureHeader !== 'string' || secret === '') return false;
  const parsed = parseHeader(signatureHeader);
  if (parsed === undefined) return false;

  const age = Math.abs((options.now ?? Date.now()) - Number(parsed.timestamp));
  // Written so that NaN (a bad `now` or tolerance) rejects rather than accepts.
  if (!(age <= (options.toleranceMs ?? WEBHOOK_TOLERANCE_MS))) return false;

  const key = await crypto.subtle.importKey('raw', utf8.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const prefix = utf8.encode(`${parsed.timestamp}.`);
  const body = typeof rawBody === 'string' ? utf8.encode(rawBody) : rawBody;
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  for (const signature of parsed.signatures) {
    // subtle.verify compares in constant time.
    if (await crypto.subtle.verify('HMAC', key, cryptoBytes(signature), signed)) return true;
  }
  return false;
}
