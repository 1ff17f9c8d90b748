import { LinkError } from './errors';
import { utf8 } from './utf8';

/** Envelopes (docs/client.md §2, §5); the additional data names version and field, so neither can pass as another. */

/** The version of links without a passphrase. */
export const ENVELOPE_VERSION = 1;
export type EnvelopeVersion = 1 | 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What an envelope adds to its plaintext: 29 bytes. */
export const ENVELOPE_OVERHEAD = 1 + IV_BYTES + TAG_BYTES;

export const AAD = { data: 'svc:v1:data', filename: 'svc:v1:filename' } as const;
export const AAD_V2 = { data: 'svc:v2:data', filename: 'svc:v2:filename' } as const;
export type EnvelopeField = keyof typeof AAD;
const AAD_OF_VERSION: Readonly<Record<EnvelopeVersion, Readonly<Record<EnvelopeField, string>>>> = { 1: AAD, 2: AAD_V2 };

/** The global WebCrypto's key type, named this way because Node's types declare no global CryptoKey. */
export type AesKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export const KEY_BYTES = 32;

/** WebCrypto takes views of an ArrayBuffer (the DOM's types say so); our bytes never live in a SharedArrayBuffer. */
export const cryptoBytes = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => bytes as Uint8Array<ArrayBuffer>;

export const importKey = (raw: Uint8Array): Promise<AesKey> =>
  crypto.subtle.importKey('raw', cryptoBytes(raw), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);

export const randomBytes = (length: number): Uint8Array => crypto.getRandomValues(new Uint8Array(length));

export const sha256 = async (bytes: Uint8Array): Promise<Uint8Array> => new Uint8Array(await crypto.subtle.digest('SHA-256', cryptoBytes(bytes)));

export const concat = (...parts: Uint8Array[]): Uint8Array => {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
};

const gcmParameters = (iv: Uint8Array, aad: string) => ({
  name: 'AES-GCM',
  iv: cryptoBytes(iv),
  additionalData: utf8.encode(aad),
  tagLength: TAG_BYTES * 8,
});

/** AES-256-GCM, a 16-byte tag after the ciphertext, `aad` as additional data: every envelope version's cipher. */
export const gcmEncrypt = async (key: AesKey, iv: Uint8Array, plaintext: Uint8Array, aad: string): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.encrypt(gcmParameters(iv, aad), key, cryptoBytes(plaintext)));

/** LinkError (undecryptable) for a wrong key or damage alike. */
export async function gcmDecrypt(key: AesKey, iv: Uint8Array, sealed: Uint8Array, aad: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await crypto.subtle.decrypt(gcmParameters(iv, aad), key, cryptoBytes(sealed)));
  } catch {
    throw LinkError.undecryptable();
  }
}

/** The envelope of `plaintext` with this iv; `seal` draws a fresh one, test vectors fix it. */
export async function sealWithIv(
  key: AesKey,
  iv: Uint8Array,
  plaintext: Uint8Array,
  field: EnvelopeField,
  version: EnvelopeVersion = ENVELOPE_VERSION,
): Promise<Uint8Array> {
  return concat(Uint8Array.of(version), iv, await gcmEncrypt(key, iv, plaintext, AAD_OF_VERSION[version][field]));
}

export const seal = (key: AesKey, plaintext: Uint8Array, field: EnvelopeField, version: EnvelopeVersion = ENVELOPE_VERSION): Promise<Uint8Array> =>
  sealWithIv(key, randomBytes(IV_BYTES), plaintext, field, version);

/** The plaintext of an envelope of `version`; LinkError on a wrong key or damage alike. */
export async function open(
  key: AesKey,
  envelope: Uint8Array,
  field: EnvelopeField,
  version: EnvelopeVersion = ENVELOPE_VERSION,
): Promise<Uint8Array> {
  if (envelope.length < ENVELOPE_OVERHEAD || envelope[0] !== version) throw LinkError.undecryptable();
  return gcmDecrypt(key, envelope.subarray(1, 1 + IV_BYTES), envelope.subarray(1 + IV_BYTES), AAD_OF_VERSION[version][field]);
}
