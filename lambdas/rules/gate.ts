import { createHash } from 'node:crypto';
import { GATE } from '#contract/limits';

/** The service's side of the passphrase gate (docs/client.md): a claim's proof must hash to the stored gate. */

/** The gate a proof opens, or undefined when the text is no proof at all (it then opens nothing). */
export const gateOfProof = (proof: string): string | undefined =>
  GATE.digestPattern.test(proof) ? createHash('sha256').update(Buffer.from(proof, 'base64url')).digest('base64url') : undefined;
