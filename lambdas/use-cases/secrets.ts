import { SECRET_ID_BYTES, SECRET_ID_PATTERN, SECRET_TTLS, type SecretTtl, type SecretType } from '#contract/limits';
import {
  NOT_CLAIMED_YET,
  NOT_REVOKED_YET,
  claimSecret,
  claimSecretAs,
  answerWithHead,
  putSecret,
  revocationSoFar,
  revokeSecret,
  type ClaimedSecret,
  type GateRefusal,
  isGateRefusal,
} from '../store/secret-store';
import { hasReceipt } from '../store/receipt-store';
import { gateOfProof } from '../rules/gate';
import { randomUrlSafeId } from '../rules/random';
import { mayDoTheWork, noteFirstAnswer, type IdempotentRequest } from './idempotency';

export { isGateRefusal } from '../store/secret-store';
export type { ClaimedSecret, GateRefusal };

/**
 * A repeat (same Idempotency-Key) that arrived while its first request may still be at work and
 * finds no trace of that work yet: it does nothing, and the route answers 409.
 */
export const STILL_IN_FLIGHT = 'still in flight';

export interface CreatedSecret {
  id: string;
  url: string;
}

export interface SecretRequest {
  data: string;
  ttl: SecretTtl;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  views: number;
  gate?: string;
}

/**
 * With an Idempotency-Key the id is the one the scope's first request made (rules/idempotency):
 * a repeat answers it once that secret's head exists, or its receipt (the secret was made, then
 * revoked or used up: it is not made again), and makes it itself once the first is surely over
 * without having made it (it failed).
 */
export async function createSecret(request: SecretRequest, owner: string, siteUrl: string, now: number): Promise<CreatedSecret>;
export async function createSecret(
  request: SecretRequest,
  owner: string,
  siteUrl: string,
  now: number,
  idempotent: IdempotentRequest | undefined,
): Promise<CreatedSecret | typeof STILL_IN_FLIGHT>;
export async function createSecret(
  request: SecretRequest,
  owner: string,
  siteUrl: string,
  now: number,
  idempotent?: IdempotentRequest,
): Promise<CreatedSecret | typeof STILL_IN_FLIGHT> {
  const id = idempotent ? idempotent.secretId : randomUrlSafeId(SECRET_ID_BYTES);
  const answer = { id, url: `${siteUrl}/${id}` };
  if (idempotent && idempotent.standing.kind !== 'first') {
    const firstMayBeAtWork = !mayDoTheWork(idempotent);
    if (await wasMade(id, firstMayBeAtWork)) return answer;
    if (firstMayBeAtWork) return STILL_IN_FLIGHT;
  }
  await putSecret({ ...request, id, owner, created: now, expires: now + SECRET_TTLS[request.ttl] });
  return answer;
}

/**
 * Whether a keyed create's secret was made: its head is there (and is now kept for this repeat's
 * answer: store/secret-store's answerWithHead), or, once the head is deleted, its receipt. A
 * used-up head's receipt is written before the head is deleted; a revoked head's right after (the
 * stream consumer's next batch, well under a second). In that moment neither is: a repeat then
 * answers 409 while its first may be at work, and only a repeat later than that, and within that
 * moment, would make the secret again.
 */
const wasMade = async (id: string, firstMayBeAtWork: boolean): Promise<boolean> => (await answerWithHead(id, firstMayBeAtWork)) || hasReceipt(id);

/**
 * undefined for every id that is not a live secret, malformed ones included, alike; an answer to
 * a request is live for its requester's key (`caller`) only. `proof`: the passphrase proof the
 * claim sent, if any; only a gated secret looks at it.
 */
export async function claim(id: string, now: number, caller: string, proof?: string): Promise<ClaimedSecret | GateRefusal | undefined>;
export async function claim(
  id: string,
  now: number,
  caller: string,
  proof: string | undefined,
  idempotent: IdempotentRequest | undefined,
): Promise<ClaimedSecret | GateRefusal | undefined | typeof STILL_IN_FLIGHT>;
export async function claim(
  id: string,
  now: number,
  caller: string,
  proof?: string,
  idempotent?: IdempotentRequest,
): Promise<ClaimedSecret | GateRefusal | undefined | typeof STILL_IN_FLIGHT> {
  if (!SECRET_ID_PATTERN.test(id)) return undefined;
  const sent = proof === undefined ? undefined : { gate: gateOfProof(proof) };
  if (!idempotent) return claimSecret(id, now, caller, sent);
  // A first whose wrong proof was counted noted so on its record: its repeat counts none again.
  if (idempotent.status === 403) return { refusal: 'wrong-proof', attemptsLeft: idempotent.attemptsLeft ?? 0 };
  const claimed = await claimSecretAs(id, now, caller, idempotent.claimToken, mayDoTheWork(idempotent), sent);
  if (claimed === NOT_CLAIMED_YET) return STILL_IN_FLIGHT;
  if (claimed !== undefined && isGateRefusal(claimed) && claimed.refusal === 'wrong-proof')
    await noteFirstAnswer(idempotent, 403, claimed.attemptsLeft);
  return claimed;
}

/**
 * A keyed revocation's repeat answers 200 when the head is gone, which is what the first's
 * deletion leaves; a first that found nothing to revoke notes its 404 on its record, since that
 * leaves nothing in the secrets table to tell the two apart.
 */
export async function revoke(id: string, owner: string, now: number, idempotent?: IdempotentRequest): Promise<boolean | typeof STILL_IN_FLIGHT> {
  if (!SECRET_ID_PATTERN.test(id)) return false;
  if (!idempotent) return revokeSecret(id, owner, now);
  if (idempotent.standing.kind === 'first') {
    const revoked = await revokeSecret(id, owner, now);
    if (!revoked) await noteFirstAnswer(idempotent, 404);
    return revoked;
  }
  if (idempotent.status === 404) return false;
  if (mayDoTheWork(idempotent)) return revokeSecret(id, owner, now, true);
  const sofar = await revocationSoFar(id, owner, now);
  return sofar === NOT_REVOKED_YET ? STILL_IN_FLIGHT : sofar;
}
