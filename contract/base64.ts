/** A single character-class scan, so no backtracking, for the last 4 characters. */
const BASE64_CHARS_THEN_PADDING = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Standard base64 (RFC 4648 section 4): alphabet A-Z a-z 0-9 + /, '=' padding only at the end,
 * length a multiple of 4. The last 4 characters are matched by the pattern; the rest is decoded
 * and encoded again, which gives the same string back only when all of it is in the standard
 * alphabet and holds no '='. On a 5 MiB string the pattern over all of it took 39–50 ms (Node 24,
 * docs/decisions/cold-start-module-evaluation.md).
 */
export function isStandardBase64(value: string): boolean {
  if (value.length === 0 || value.length % 4 !== 0) return false;
  const fullQuanta = value.slice(0, -4);
  return BASE64_CHARS_THEN_PADDING.test(value.slice(-4)) && !fullQuanta.includes('=') && encodesAgainAlike(fullQuanta);
}

/**
 * Node's decoder skips what it cannot read and reads base64url's '-' and '_' as well; either
 * changes what the encoder gives back.
 */
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

/**
 * Node's Buffer where there is one (the functions, local mode, the CLI): on a 5 MiB string the
 * check takes about 4 ms with it, where Node's `atob` and `btoa`, loops in JavaScript there, take
 * about 10 ms on a quiet machine and 20–25 ms on a busy one. Browsers (the pages, which check
 * answers with this rule) have no Buffer, and their own `atob` and `btoa`.
 */
const encodesAgainAlike = typeof Buffer === 'function' ? encodesAgainAlikeByBuffer : encodesAgainAlikeByAtob;

/**
 * Whether standard base64 `value` is the one its bytes encode to: the bits its padding leaves over
 * are zero. Decoders accept others too ("QR==" is "A" as "QQ==" is), but they would not survive
 * being stored as bytes. Only the last 4 characters can carry such bits.
 */
export function isCanonicalBase64(value: string): boolean {
  const lastQuantum = value.slice(-4);
  return Buffer.from(lastQuantum, 'base64').toString('base64') === lastQuantum;
}
