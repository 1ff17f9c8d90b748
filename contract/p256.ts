import { REQUEST_PUBLIC_KEY_BYTES, REQUEST_PUBLIC_KEY_PATTERN } from './requests';

/**
 * Whether `value` is a P-256 public key as requests take it: an uncompressed point (0x04 ‖ x ‖ y)
 * in canonical unpadded base64url, on the curve. A sender's client would fail on anything else,
 * after its user typed the secret.
 *
 * The curve equation is checked by hand with BigInt rather than by node:crypto: the request schema
 * that calls this is shared with the browser-safe client (and the pages), which import nothing of
 * Node. It is one equation (y² = x³ − 3x + b mod p, SEC 2 §2.4.2), not an implementation of the curve.
 */

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

const URL_SAFE = /[-_]/g;

function bytesOf(base64Url: string): Uint8Array | undefined {
  const standard = base64Url.replace(URL_SAFE, (character) => (character === '-' ? '+' : '/'));
  try {
    const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Its bytes' own encoding: a decoder ignores the unused low bits of the last character, this does not. */
const base64UrlOf = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const bigIntOf = (bytes: Uint8Array): bigint => bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);

export function isP256PublicKey(value: string): boolean {
  if (!REQUEST_PUBLIC_KEY_PATTERN.test(value)) return false;
  const bytes = bytesOf(value);
  if (bytes?.length !== REQUEST_PUBLIC_KEY_BYTES || bytes[0] !== 0x04 || base64UrlOf(bytes) !== value) return false;
  const x = bigIntOf(bytes.subarray(1, 33));
  const y = bigIntOf(bytes.subarray(33));
  if (x >= P || y >= P) return false;
  return (y * y - (x * x * x - 3n * x + B)) % P === 0n;
}
