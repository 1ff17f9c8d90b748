import { createHash } from 'node:crypto';
import { GATE } from '#contract/limits';

/**
 * The service's side of the passphrase gate. Clients derive a proof from the link's key and the
 * passphrase (docs/client.md) and store only its SHA-256, the gate; a claim sends the proof, and
 * the service compares its digest with the gate. Neither value lets anyone test a passphrase
 * without the link's key, which the service never receives.
 */

/** The gate a proof opens, or undefined when the text is no proof at all (it then opens nothing). */
export const gateOfProof = (proof: string): string | undefined =>
  GATE.digestPattern.test(proof) ? createHash('sha256').update(Buffer.from(proof, 'base64url')).digest('base64url') : undefined;
