import { createCipheriv, createECDH, createHash, hkdfSync, pbkdf2Sync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run vectors`: writes the client's test vectors, computed here with node:crypto alone (never
 * with the client library, which they check): the passphrase gate's derivation and version-2
 * envelopes (client/test-vectors-v2.json), and a request's version-3 answer
 * (client/request-test-vectors.json). The output is deterministic; unit tests check the committed
 * files are what this writes.
 */

const sha256 = (...parts: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();
const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer): Buffer => Buffer.from(hkdfSync('sha256', ikm, salt, info, 32));
const ascii = (text: string): Buffer => Buffer.from(text, 'ascii');

/** AES-256-GCM: iv ‖ ciphertext ‖ tag. */
function gcm(key: Buffer, ivHex: string, plaintext: Buffer, aad: string): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, Buffer.from(ivHex, 'hex'));
  cipher.setAAD(ascii(aad));
  return Buffer.concat([Buffer.from(ivHex, 'hex'), cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

const TEXT = 'Grüße, 世界 🔑\n';
const FILENAME = 'Quarterly report – Q3.pdf';

const ITERATIONS = 600_000;
const LINK_KEY = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');

function derivation(name: string, passphrase: string) {
  const salt = sha256(ascii('svc:v2:salt'), LINK_KEY).subarray(0, 16);
  const stretched = pbkdf2Sync(Buffer.from(passphrase.normalize('NFC'), 'utf8'), salt, ITERATIONS, 32, 'sha256');
  const ikm = Buffer.concat([LINK_KEY, stretched]);
  const proof = hkdf(ikm, Buffer.alloc(32), ascii('svc:v2:proof'));
  return {
    name,
    passphrase,
    passphraseUtf8Hex: Buffer.from(passphrase, 'utf8').toString('hex'),
    saltHex: salt.toString('hex'),
    stretchedHex: stretched.toString('hex'),
    envelopeKeyHex: hkdf(ikm, Buffer.alloc(32), ascii('svc:v2:key')).toString('hex'),
    proofBase64Url: proof.toString('base64url'),
    gateBase64Url: sha256(proof).toString('base64url'),
  };
}

function passphraseVectors() {
  const url = 'https://secrets.example.com/J8k051Rl3B2N5nxEX7V-gg';
  const derivations = [
    derivation('plain ASCII', 'correct horse battery staple'),
    // "é" as e + combining acute (NFD): derived as its NFC form, as if typed precomposed.
    derivation('decomposed, normalized to NFC', 'Cafe\u0301 mit Gr\u00fc\u00dfen, 世界 🔑'),
    derivation('spaces kept: passphrases are not trimmed', '  two spaces before, one after '),
  ];
  const key = Buffer.from(derivations[0]?.envelopeKeyHex ?? '', 'hex');
  const envelope = (field: string, plaintextUtf8: string, ivHex: string, encoding: 'base64' | 'base64url') => ({
    name: `${field === 'data' ? 'text' : field}, sealed with the first derivation’s K`,
    field,
    plaintextUtf8,
    aad: `svc:v2:${field}`,
    ivHex,
    encoding: encoding === 'base64' ? encoding : 'base64url, unpadded',
    sent: Buffer.concat([Buffer.from([2]), gcm(key, ivHex, Buffer.from(plaintextUtf8, 'utf8'), `svc:v2:${field}`)]).toString(encoding),
  });
  return {
    description:
      'Passphrase gate, envelope version 2 (docs/client.md, "Passphrase"). From the link key k (linkKeyHex): salt = first 16 bytes of SHA-256("svc:v2:salt" ‖ k); stretched = PBKDF2-HMAC-SHA256(UTF-8(NFC(passphrase)), salt, 600000, 32 bytes); ikm = k ‖ stretched; K = HKDF-SHA256(ikm, salt = 32 zero bytes, info "svc:v2:key", 32 bytes); proof = HKDF-SHA256(ikm, same salt, info "svc:v2:proof", 32 bytes); gate = SHA-256(proof). Envelopes: 0x02 ‖ iv ‖ ciphertext ‖ tag, AES-256-GCM with K and the additional data `aad`. `passphraseUtf8Hex` is the passphrase as typed, before NFC. Made with node:crypto by scripts/vectors.ts.',
    iterations: ITERATIONS,
    linkKeyHex: LINK_KEY.toString('hex'),
    link: { url, link: `${url}#p.${LINK_KEY.toString('base64url')}` },
    derivations,
    envelopes: [
      envelope('data', `${TEXT}line two\n\n`, 'e0e1e2e3e4e5e6e7e8e9eaeb', 'base64'),
      envelope('filename', FILENAME, 'f0f1f2f3f4f5f6f7f8f9fafb', 'base64url'),
    ],
  };
}

const RECIPIENT_SCALAR = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721';
const EPHEMERAL_SCALAR = '0f56db78ca460b055c500064824bed999a25aaf48ebb519ac201537b85479813';

function requestVectors() {
  const pairOf = (scalarHex: string) => {
    const pair = createECDH('prime256v1');
    pair.setPrivateKey(Buffer.from(scalarHex, 'hex'));
    return pair;
  };
  const [recipient, ephemeral] = [pairOf(RECIPIENT_SCALAR).getPublicKey(), pairOf(EPHEMERAL_SCALAR)];
  const ephemeralPoint = ephemeral.getPublicKey();
  const shared = ephemeral.computeSecret(recipient);
  const key = hkdf(shared, ascii('svc:v3:salt'), Buffer.concat([ascii('svc:v3:key'), ephemeralPoint, recipient]));
  /** `data` carries E before the iv and is standard base64; `filename` is unpadded base64url. */
  const sealed = (name: string, field: 'data' | 'filename', plaintext: Buffer, ivHex: string, utf8Text?: string) => {
    const encoding = field === 'data' ? 'base64' : 'base64url';
    const point = field === 'data' ? [ephemeralPoint] : [];
    return {
      name,
      field,
      ...(utf8Text !== undefined ? { plaintextUtf8: utf8Text } : { plaintextHex: plaintext.toString('hex') }),
      aad: `svc:v3:${field}`,
      ivHex,
      encoding,
      sent: Buffer.concat([Buffer.from([3]), ...point, gcm(key, ivHex, plaintext, `svc:v3:${field}`)]).toString(encoding),
    };
  };
  const text = `${TEXT}the database password\n`;
  const url = 'https://secrets.example.com/r/J8k051Rl3B2N5nxEX7V-gg';
  const fingerprint = sha256(recipient).toString('base64url');
  const receiveLink = `${url}/receive#${Buffer.from(RECIPIENT_SCALAR, 'hex').toString('base64url')}`;
  return {
    description:
      'Envelope version 3, a secret request\'s answer (docs/client.md): K = HKDF-SHA256(ikm = ECDH(e, R) x-coordinate, salt = "svc:v3:salt", ' +
      'info = "svc:v3:key" ‖ E ‖ R, 32 bytes); data = 0x03 ‖ E ‖ iv ‖ ciphertext ‖ tag as standard padded base64; filename = 0x03 ‖ iv ‖ ciphertext ‖ tag ' +
      'as unpadded base64url; AES-256-GCM with the ASCII additional data `aad`. E and R are uncompressed P-256 points (0x04 ‖ x ‖ y). ' +
      'Scalars, points, keys, ivs and binary plaintexts are hex. Made with node:crypto by scripts/vectors.ts.',
    recipientScalarHex: RECIPIENT_SCALAR,
    recipientPublicKeyHex: recipient.toString('hex'),
    /** As POST /requests takes it. */
    recipientPublicKeyBase64Url: recipient.toString('base64url'),
    fingerprint,
    ephemeralScalarHex: EPHEMERAL_SCALAR,
    ephemeralPublicKeyHex: ephemeralPoint.toString('hex'),
    sharedSecretHex: shared.toString('hex'),
    keyHex: key.toString('hex'),
    links: { url, requestLink: `${url}#${fingerprint}`, receiveLink, receiveLinkWithKey: `${receiveLink}.svc_MtlU4LDD5zURG2ZMmjOLfxoxppGCrQxz` },
    vectors: [
      sealed('text with unicode and a trailing newline', 'data', Buffer.from(text), 'a0a1a2a3a4a5a6a7a8a9aaab', text),
      sealed('empty text', 'data', Buffer.alloc(0), 'b0b1b2b3b4b5b6b7b8b9babb', ''),
      sealed('file bytes', 'data', Buffer.from([0, 1, 2, 253, 254, 255]), 'c0c1c2c3c4c5c6c7c8c9cacb'),
      sealed('a filename', 'filename', Buffer.from(FILENAME), 'd0d1d2d3d4d5d6d7d8d9dadb', FILENAME),
    ],
  };
}

/** Each vectors file under client/, and what this script writes into it. */
export const VECTOR_FILES = { 'test-vectors-v2.json': passphraseVectors, 'request-test-vectors.json': requestVectors };
export const renderVectors = (file: keyof typeof VECTOR_FILES): string => `${JSON.stringify(VECTOR_FILES[file](), null, 2)}\n`;

if (require.main === module) {
  for (const file of Object.keys(VECTOR_FILES) as (keyof typeof VECTOR_FILES)[]) {
    writeFileSync(path.resolve(__dirname, '../client', file), renderVectors(file));
  }
}
