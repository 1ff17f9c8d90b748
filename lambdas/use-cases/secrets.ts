import { SECRET_ID_BYTES, SECRET_ID_PATTERN, SECRET_TTLS, type SecretTtl, type SecretType } from '../definitions/limits';
import { claimSecret, putSecret, revokeSecret, type ClaimedSecret, type GateRefusal } from '../store/secret-store';
import { gateOfProof } from '../rules/gate';
import { randomUrlSafeId } from '../rules/random';

export { isGateRefusal } from '../store/secret-store';
export type { ClaimedSecret, GateRefusal };

export interface SecretRequest {
  data: string;
  ttl: SecretTtl;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  views: number;
  gate?: string;
}

export async function createSecret(
  request: SecretRequest,
  owner: string,
  siteUrl: string,
  now: number,
): Promise<{ id: string; url: string }> {
  const id = randomUrlSafeId(SECRET_ID_BYTES);
  await putSecret({ ...request, id, owner, created: now, expires: now + SECRET_TTLS[request.ttl] });
  return { id, url: `${siteUrl}/${id}` };
}

/**
 * undefined for every id that is not a live secret, malformed ones included, alike. `proof`: the
 * passphrase proof the claim sent, if any; only a gated secret looks at it.
 */
export async function claim(id: string, now: number, proof?: string): Promise<ClaimedSecret | GateRefusal | undefined> {
  if (!SECRET_ID_PATTERN.test(id)) return undefined;
  return claimSecret(id, now, proof === undefined ? undefined : { gate: gateOfProof(proof) });
}

export async function revoke(id: string, owner: string, now: number): Promise<boolean> {
  return SECRET_ID_PATTERN.test(id) ? revokeSecret(id, owner, now) : false;
}
