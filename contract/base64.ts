/** A single character-class scan, so no backtracking, for the last 4 characters. */
const BASE64_CHARS_THEN_PADDING = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64 (RFC 4648 §4): the pattern checks the last 4 characters, a decode-encode round trip the rest. */
export function isStandardBase64(value: string): boolean {
  if (value.length === 0 || value.length % 4 !== 0) return false;
  const fullQuanta = value.slice(0, -4);
  return BASE64_CHARS_THEN_PADDING.test(value.slice(-4)) && !fullQuanta.includes('=') && encodesAgainAlike(fullQuanta);
}

/** Node's decoder skips what it cannot read; that changes what the encoder gives back. */
const encodesAgainAlikeByBuffer = (quanta: string): boolean => Buffer.from(quanta, 'base64').toString('base64') === quanta;

/** `atob` refuses characters outside the alphabet and drops whitespace; the latter changes what `btoa` gives back. */
function encodesAgainAlikeByAtob(quanta: string): boolean {
  try {
    return btoa(atob(quanta)) === quanta;
  } catch {
    // atob's InvalidCharacterError: a character outside the alphabet.
    return false;
  }
}

/** Node's Buffer where there is one (faster than Node's `atob`); browsers have `atob` and `btoa` only. */
const encodesAgainAlike = typeof Buffer === 'function' ? encodesAgainAlikeByBuffer : encodesAgainAlikeByAtob;

/** Whether `value` is the one its bytes encode to ("QR==" decodes as "QQ==" does, but would not survive storage as bytes). */
export function isCanonicalBase64(value: string): boolean {
  const lastQuantum = value.slice(-4);
  return Buffer.from(lastQuantum, 'base64').toString('base64') === lastQuantum;
}
