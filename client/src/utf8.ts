/**
 * UTF-8 both ways, as the envelope's text and names need it. Decoding is strict: bytes that are
 * not UTF-8 are no text (undefined). A leading BOM is content and is kept, so that text comes back
 * byte for byte.
 */

export const utf8 = new TextEncoder();

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}
