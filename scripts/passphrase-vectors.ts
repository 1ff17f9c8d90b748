import { createCipheriv, createHash, hkdfSync, pbkdf2Sync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes client/test-vectors-v2.json: the passphrase gate's derivation, proof, gate and version-2
 * envelopes, computed here with node:crypto alone (never with the client library, which the
 * vectors check). `npm run vectors`; a unit test checks the committed file is this output.
 */

export const VECTORS_V2_PATH = path.resolve(__dirname, '../client/test-vectors-v2.json');

const ITERATIONS = 600_000;
const LINK_KEY = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
const URL = 'https://secrets.example.com/J8k051Rl3B2N5nxEX7V-gg';

const sha256 = (...parts: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();
const hkdf = (ikm: Buffer, info: string): Buffer => Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(32), Buffer.from(info, 'ascii'), 32));

function derivation(name: string, passphrase: string) {
  const salt = sha256(Buffer.from('svc:v2:salt', 'ascii'), LINK_KEY).subarray(0, 16);
  const stretched = pbkdf2Sync(Buffer.from(passphrase.normalize('NFC'), 'utf8'), salt, ITERATIONS, 32, 'sha256');
  const ikm = Buffer.concat([LINK_KEY, stretched]);
  const key = hkdf(ikm, 'svc:v2:key');
  const proof = hkdf(ikm, 'svc:v2:proof');
  return {
    name,
    passphrase,
    passphraseUtf8Hex: Buffer.from(passphrase, 'utf8').toString('hex'),
    saltHex: salt.toString('hex'),
    stretchedHex: stretched.toString('hex'),
    envelopeKeyHex: key.toString('hex'),
    proofBase64Url: proof.toString('base64url'),
    gateBase64Url: sha256(proof).toString('base64url'),
  };
}

function envelope(key: Buffer, ivHex: string, plaintext: Buffer, aad: string): Buffer {
  const iv = Buffer.from(ivHex, 'hex');
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'ascii'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([2]), iv, ciphertext, cipher.getAuthTag()]);
}

export function passphraseVectors() {
  const derivations = [
    derivation('plain ASCII', 'correct horse battery staple'),
    // "é" as e + combining acute (NFD): derived as its NFC form, as if typed precomposed.
    derivation('decomposed, normalized to NFC', 'Cafe\u0301 mit Gr\u00fc\u00dfen, 世界 🔑'),
    derivation('spaces kept: passphrases are not trimmed', '  two spaces before, one after '),
  ];
  const [first] = derivations;
  if (!first) throw new Error('no derivation');
  const key = Buffer.from(first.envelopeKeyHex, 'hex');
  const text = 'Grüße, 世界 🔑\nline two\n\n';
  const filename = 'Quarterly report – Q3.pdf';
  return {
    description:
      'Passphrase gate, envelope version 2 (docs/client.md, "Passphrase"). From the link key k (linkKeyHex): salt = first 16 bytes of SHA-256("svc:v2:salt" ‖ k); stretched = PBKDF2-HMAC-SHA256(UTF-8(NFC(passphrase)), salt, 600000, 32 bytes); ikm = k ‖ stretched; K = HKDF-SHA256(ikm, salt = 32 zero bytes, info "svc:v2:key", 32 bytes); proof = HKDF-SHA256(ikm, same salt, info "svc:v2:proof", 32 bytes); gate = SHA-256(proof). Envelopes: 0x02 ‖ iv ‖ ciphertext ‖ tag, AES-256-GCM with K and the additional data `aad`. `passphraseUtf8Hex` is the passphrase as typed, before NFC. Made with node:crypto by scripts/passphrase-vectors.ts.',
    iterations: ITERATIONS,
    linkKeyHex: LINK_KEY.toString('hex'),
    link: { url: URL, link: `${URL}#p.${LINK_KEY.toString('base64url')}` },
    derivations,
    envelopes: [
      {
        name: 'text, sealed with the first derivation’s K',
        field: 'data',
        plaintextUtf8: text,
        aad: 'svc:v2:data',
        ivHex: 'e0e1e2e3e4e5e6e7e8e9eaeb',
        encoding: 'base64',
        sent: envelope(key, 'e0e1e2e3e4e5e6e7e8e9eaeb', Buffer.from(text, 'utf8'), 'svc:v2:data').toString('base64'),
      },
      {
        name: 'filename, sealed with the first derivation’s K',
        field: 'filename',
        plaintextUtf8: filename,
        aad: 'svc:v2:filename',
        ivHex: 'f0f1f2f3f4f5f6f7f8f9fafb',
        encoding: 'base64url, unpadded',
        sent: envelope(key, 'f0f1f2f3f4f5f6f7f8f9fafb', Buffer.from(filename, 'utf8'), 'svc:v2:filename').toString('base64url'),
      },
    ],
  };
}

export const renderPassphraseVectors = (): string => `${JSON.stringify(passphraseVectors(), null, 2)}\n`;

if (require.main === module) writeFileSync(VECTORS_V2_PATH, renderPassphraseVectors());
