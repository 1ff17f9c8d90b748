/** Base64 without Node's Buffer, which browsers lack; encoding by table, as String.fromCharCode and btoa are slow. */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = Uint8Array.from(ALPHABET, (character) => character.charCodeAt(0));
const PAD = '='.charCodeAt(0);
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const ascii = new TextDecoder();

const code = (sextet: number): number => CODES[sextet & 63] ?? PAD;

export function toBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(4 * Math.ceil(bytes.length / 3));
  let at = 0;
  for (let index = 0; index < bytes.length; index += 3) {
    const remaining = bytes.length - index;
    const triple = ((bytes[index] ?? 0) << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    out[at++] = code(triple >> 18);
    out[at++] = code(triple >> 12);
    out[at++] = remaining > 1 ? code(triple >> 6) : PAD;
    out[at++] = remaining > 2 ? code(triple) : PAD;
  }
  return ascii.decode(out);
}

/** Throws on text that is not base64 (atob's own check). */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Unpadded base64url (RFC 4648 section 5). */
export const toBase64Url = (bytes: Uint8Array): string => toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Unpadded base64url to bytes; undefined when `text` is not that. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}
