/** UTF-8 both ways; decoding is strict (undefined) and keeps a leading BOM, so text comes back byte for byte. */

export const utf8 = new TextEncoder();

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}
