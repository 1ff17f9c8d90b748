/** The WHATWG parser forgives stray whitespace and `https:x`; a URL we take must be what the parser reads. */
const WHITESPACE_OR_CONTROL = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/u;
const SPELLED_OUT_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]/i;

/** Whether `candidate` is an absolute URL that the parser reads as written. */
export const isSpelledOutUrl = (candidate: string): boolean =>
  !WHITESPACE_OR_CONTROL.test(candidate) && SPELLED_OUT_AUTHORITY.test(candidate) && URL.canParse(candidate);
