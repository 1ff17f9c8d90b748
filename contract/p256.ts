import { REQUEST_PUBLIC_KEY_BYTES, REQUEST_PUBLIC_KEY_PATTERN } from './requests';

/**
 * Whether `value` is an uncompressed P-256 point in canonical unpadded base64url, on the curve. One equation by hand
 * (SEC 2 §2.4.2) rather than node:crypto: the schema calling this is shared with the browser-safe client.
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
