import { fromBase64Url, toBase64Url } from './base64';
import { concat, cryptoBytes, gcmDecrypt, gcmEncrypt, randomBytes, sha256, type AesKey } from './envelope';
import { LinkError } from './errors';
import { utf8 } from './utf8';

/** Envelope version 3, content encrypted to a requester's P-256 public key: docs/client.md §7 gives the format. */

export const REQUEST_ENVELOPE_VERSION = 3;
export const REQUEST_AAD = { data: 'svc:v3:data', filename: 'svc:v3:filename' } as const;
export const HKDF_SALT = 'svc:v3:salt';
export const HKDF_INFO = 'svc:v3:key';

const POINT_BYTES = 65;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What a data envelope adds to its plaintext: 94 bytes. */
export const REQUEST_DATA_OVERHEAD = 1 + POINT_BYTES + IV_BYTES + TAG_BYTES;
const FILENAME_OVERHEAD = 1 + IV_BYTES + TAG_BYTES;

export type EcKey = AesKey;
export type EcKeyPair = { privateKey: EcKey; publicKey: EcKey };

const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;

export async function generateRequestKeyPair(): Promise<EcKeyPair> {
  return await crypto.subtle.generateKey(ECDH, true, ['deriveBits']);
}

export async function rawPublicKey(key: EcKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.exportKey('raw', key));
}

/** The private scalar d (32 bytes), what a receive link carries. */
export async function privateScalar(key: EcKey): Promise<Uint8Array> {
  const jwk = await crypto.subtle.exportKey('jwk', key);
  const d = fromBase64Url(jwk.d ?? '');
  if (d?.length !== 32) throw new Error('the private key has no 32-byte scalar');
  return d;
}

export const importPublicKey = (raw: Uint8Array): Promise<EcKey> => crypto.subtle.importKey('raw', cryptoBytes(raw), ECDH, true, []);

/** A private key from its scalar and its public key (WebCrypto imports private EC keys as JWK, which needs both). */
export function importPrivateKey(d: Uint8Array, publicKey: Uint8Array): Promise<EcKey> {
  if (publicKey.length !== POINT_BYTES || publicKey[0] !== 4) throw LinkError.undecryptable();
  return crypto.subtle.importKey(
    'jwk',
    { kty: 'EC', crv: 'P-256', d: toBase64Url(d), x: toBase64Url(publicKey.subarray(1, 33)), y: toBase64Url(publicKey.subarray(33)), ext: false },
    ECDH,
    false,
    ['deriveBits'],
  );
}

/** SHA-256 of the raw public key, unpadded base64url (43 characters): what a request link carries. */
export async function fingerprint(publicKey: Uint8Array): Promise<string> {
  return toBase64Url(await sha256(publicKey));
}

/** K from our private key and the other side's public key; E is the ephemeral point, R the requester's. */
async function deriveKey(ownPrivate: EcKey, otherPublic: EcKey, ephemeral: Uint8Array, recipient: Uint8Array): Promise<AesKey> {
  const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: otherPublic }, ownPrivate, 256);
  const ikm = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: cryptoBytes(utf8.encode(HKDF_SALT)),
      info: cryptoBytes(concat(utf8.encode(HKDF_INFO), ephemeral, recipient)),
    },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** A sender's sealing of one answer: its data and, for a file, its name, under one ephemeral key. */
export interface AnswerSealer {
  data(plaintext: Uint8Array, iv?: Uint8Array): Promise<Uint8Array>;
  filename(name: Uint8Array, iv?: Uint8Array): Promise<Uint8Array>;
}

/** Seals to `recipient` (raw point) with `ephemeral` (a fresh pair unless given: test vectors fix it). */
export async function answerSealer(recipient: Uint8Array, ephemeral?: EcKeyPair): Promise<AnswerSealer> {
  const pair = ephemeral ?? (await generateRequestKeyPair());
  const ephemeralPoint = await rawPublicKey(pair.publicKey);
  const key = await deriveKey(pair.privateKey, await importPublicKey(recipient), ephemeralPoint, recipient);
  const version = Uint8Array.of(REQUEST_ENVELOPE_VERSION);
  return {
    data: async (plaintext, iv = randomBytes(IV_BYTES)) =>
      concat(version, ephemeralPoint, iv, await gcmEncrypt(key, iv, plaintext, REQUEST_AAD.data)),
    filename: async (name, iv = randomBytes(IV_BYTES)) => concat(version, iv, await gcmEncrypt(key, iv, name, REQUEST_AAD.filename)),
  };
}

/** The requester's opening of one answer: the data envelope first (it carries E), then its filename. */
export interface AnswerOpener {
  data: Uint8Array;
  filename(envelope: Uint8Array): Promise<Uint8Array>;
}

/** LinkError (undecryptable) for a wrong key, a damaged envelope or another version alike. */
export async function openAnswer(privateKey: EcKey, recipient: Uint8Array, envelope: Uint8Array): Promise<AnswerOpener> {
  if (envelope.length < REQUEST_DATA_OVERHEAD || envelope[0] !== REQUEST_ENVELOPE_VERSION) throw LinkError.undecryptable();
  const ephemeralPoint = envelope.subarray(1, 1 + POINT_BYTES);
  let ephemeral: EcKey;
  try {
    ephemeral = await importPublicKey(ephemeralPoint);
  } catch {
    throw LinkError.undecryptable();
  }
  const key = await deriveKey(privateKey, ephemeral, ephemeralPoint, recipient);
  const ivAt = 1 + POINT_BYTES;
  const data = await gcmDecrypt(key, envelope.subarray(ivAt, ivAt + IV_BYTES), envelope.subarray(ivAt + IV_BYTES), REQUEST_AAD.data);
  return {
    data,
    filename: async (sealed) => {
      if (sealed.length < FILENAME_OVERHEAD || sealed[0] !== REQUEST_ENVELOPE_VERSION) throw LinkError.undecryptable();
      return gcmDecrypt(key, sealed.subarray(1, 1 + IV_BYTES), sealed.subarray(1 + IV_BYTES), REQUEST_AAD.filename);
    },
  };
}
