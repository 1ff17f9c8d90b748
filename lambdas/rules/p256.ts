import { ECDH } from 'node:crypto';
import { REQUEST_PUBLIC_KEY_BYTES, REQUEST_PUBLIC_KEY_PATTERN } from '../definitions/requests';

/**
 * Whether `value` is a P-256 public key as requests take it: an uncompressed point (0x04 ‖ x ‖ y)
 * in canonical unpadded base64url, on the curve. OpenSSL's point decoding (through ECDH.convertKey)
 * checks the curve equation: a sender's client would fail on anything else, after its user typed
 * the secret.
 */
export function isP256PublicKey(value: string): boolean {
  if (!REQUEST_PUBLIC_KEY_PATTERN.test(value)) return false;
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length !== REQUEST_PUBLIC_KEY_BYTES || bytes[0] !== 0x04 || bytes.toString('base64url') !== value) return false;
  try {
    ECDH.convertKey(bytes, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}
