import { createCipheriv, createECDH, createHash, hkdfSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Writes client/request-test-vectors.json: envelope version 3 (docs/client.md, "Secret requests")
 * computed with node:crypto alone, never with the client library, so that the library, the CLI
 * and the pages are checked against an independent implementation. `npm run vectors:requests`
 * rewrites it; the output is deterministic.
 */

const RECIPIENT_SCALAR = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721';
const EPHEMERAL_SCALAR = '0f56db78ca460b055c500064824bed999a25aaf48ebb519ac201537b85479813';
const SALT = 'svc:v3:salt';
const INFO = 'svc:v3:key';
const VERSION = Buffer.from([3]);

const ecdh = (scalarHex: string) => {
  const pair = createECDH('prime256v1');
  pair.setPrivateKey(Buffer.from(scalarHex, 'hex'));
  return pair;
};

const recipient = ecdh(RECIPIENT_SCALAR);
const ephemeral = ecdh(EPHEMERAL_SCALAR);
const recipientPoint = recipient.getPublicKey();
const ephemeralPoint = ephemeral.getPublicKey();
const shared = ephemeral.computeSecret(recipientPoint);
const key = Buffer.from(hkdfSync('sha256', shared, Buffer.from(SALT), Buffer.concat([Buffer.from(INFO), ephemeralPoint, recipientPoint]), 32));

function gcm(plaintext: Buffer, ivHex: string, aad: string): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, Buffer.from(ivHex, 'hex'));
  cipher.setAAD(Buffer.from(aad));
  return Buffer.concat([Buffer.from(ivHex, 'hex'), cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

const dataVector = (name: string, plaintext: Buffer, ivHex: string, utf8Text?: string) => ({
  name,
  field: 'data',
  ...(utf8Text !== undefined ? { plaintextUtf8: utf8Text } : { plaintextHex: plaintext.toString('hex') }),
  aad: 'svc:v3:data',
  ivHex,
  encoding: 'base64',
  sent: Buffer.concat([VERSION, ephemeralPoint, gcm(plaintext, ivHex, 'svc:v3:data')]).toString('base64'),
});

const text = 'Grüße, 世界 🔑\nthe database password\n';
const filename = 'Quarterly report – Q3.pdf';
const url = 'https://secrets.example.com/r/J8k051Rl3B2N5nxEX7V-gg';
const fingerprint = createHash('sha256').update(recipientPoint).digest('base64url');

const vectors = {
  description:
    'Envelope version 3, a secret request\'s answer (docs/client.md): K = HKDF-SHA256(ikm = ECDH(e, R) x-coordinate, salt = "svc:v3:salt", ' +
    'info = "svc:v3:key" ‖ E ‖ R, 32 bytes); data = 0x03 ‖ E ‖ iv ‖ ciphertext ‖ tag as standard padded base64; filename = 0x03 ‖ iv ‖ ciphertext ‖ tag ' +
    'as unpadded base64url; AES-256-GCM with the ASCII additional data `aad`. E and R are uncompressed P-256 points (0x04 ‖ x ‖ y). ' +
    'Scalars, points, keys, ivs and binary plaintexts are hex. Made with node:crypto by scripts/request-vectors.ts.',
  recipientScalarHex: RECIPIENT_SCALAR,
  recipientPublicKeyHex: recipientPoint.toString('hex'),
  /** As POST /requests takes it. */
  recipientPublicKeyBase64Url: recipientPoint.toString('base64url'),
  fingerprint,
  ephemeralScalarHex: EPHEMERAL_SCALAR,
  ephemeralPublicKeyHex: ephemeralPoint.toString('hex'),
  sharedSecretHex: shared.toString('hex'),
  keyHex: key.toString('hex'),
  links: {
    url,
    requestLink: `${url}#${fingerprint}`,
    receiveLink: `${url}/receive#${Buffer.from(RECIPIENT_SCALAR, 'hex').toString('base64url')}`,
    receiveLinkWithKey: `${url}/receive#${Buffer.from(RECIPIENT_SCALAR, 'hex').toString('base64url')}.svc_MtlU4LDD5zURG2ZMmjOLfxoxppGCrQxz`,
  },
  vectors: [
    dataVector('text with unicode and a trailing newline', Buffer.from(text), 'a0a1a2a3a4a5a6a7a8a9aaab', text),
    dataVector('empty text', Buffer.alloc(0), 'b0b1b2b3b4b5b6b7b8b9babb', ''),
    dataVector('file bytes', Buffer.from([0, 1, 2, 253, 254, 255]), 'c0c1c2c3c4c5c6c7c8c9cacb'),
    {
      name: 'a filename',
      field: 'filename',
      plaintextUtf8: filename,
      aad: 'svc:v3:filename',
      ivHex: 'd0d1d2d3d4d5d6d7d8d9dadb',
      encoding: 'base64url',
      sent: Buffer.concat([VERSION, gcm(Buffer.from(filename), 'd0d1d2d3d4d5d6d7d8d9dadb', 'svc:v3:filename')]).toString('base64url'),
    },
  ],
};

/** The committed file, or the path given (the unit test compares a fresh run with the committed one). */
const output = process.argv[2] ?? path.join(__dirname, '..', 'client', 'request-test-vectors.json');
writeFileSync(output, `${JSON.stringify(vectors, null, 2)}\n`);
