import { concat, cryptoBytes, sha256 } from './envelope';
import { InputError } from './errors';
import { utf8 } from './utf8';

/** The passphrase gate's keys (docs/client.md §5); both need k, so a copy of the tables cannot test a guess. */

export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const DERIVED_BITS = 256;
const LABELS = { salt: 'svc:v2:salt', key: 'svc:v2:key', proof: 'svc:v2:proof' } as const;

export interface PassphraseKeys {
  /** K: the AES-256-GCM key of the version-2 envelopes. */
  key: Uint8Array;
  /** Sent with each claim (x-secret-proof). */
  proof: Uint8Array;
}

/** The passphrase as the derivation takes it: refused when empty; NFC, so that é typed either way is one passphrase; never trimmed. */
export function passphraseBytes(passphrase: string): Uint8Array {
  if (passphrase === '') throw new InputError('the passphrase is empty');
  return utf8.encode(passphrase.normalize('NFC'));
}

/** The stretched passphrase: the one slow step (600,000 iterations: about half a second). */
export async function stretch(linkKey: Uint8Array, passphrase: string): Promise<Uint8Array> {
  const salt = (await sha256(concat(utf8.encode(LABELS.salt), linkKey))).subarray(0, SALT_BYTES);
  const material = await crypto.subtle.importKey('raw', cryptoBytes(passphraseBytes(passphrase)), 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: cryptoBytes(salt), iterations: PBKDF2_ITERATIONS },
      material,
      DERIVED_BITS,
    ),
  );
}

export async function derivePassphraseKeys(linkKey: Uint8Array, passphrase: string): Promise<PassphraseKeys> {
  const stretched = await stretch(linkKey, passphrase);
  const material = await crypto.subtle.importKey('raw', cryptoBytes(concat(linkKey, stretched)), 'HKDF', false, ['deriveBits']);
  const expand = async (info: string): Promise<Uint8Array> =>
    new Uint8Array(
      await crypto.subtle.deriveBits(
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: cryptoBytes(utf8.encode(info)) },
        material,
        DERIVED_BITS,
      ),
    );
  return { key: await expand(LABELS.key), proof: await expand(LABELS.proof) };
}

/** What the service stores: the SHA-256 of the proof. */
export const gateOf = (proof: Uint8Array): Promise<Uint8Array> => sha256(proof);
