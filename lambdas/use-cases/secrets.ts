import { SECRET_ID_BYTES, SECRET_ID_PATTERN, SECRET_TTLS, type SecretTtl, type SecretType } from '../definitions/limits';
import { claimSecret, putSecret, revokeSecret, type ClaimedSecret } from '../store/secret-store';
import { randomUrlSafeId } from '../rules/random';

export type { ClaimedSecret };

export interface SecretRequest {
  data: string;
  ttl: SecretTtl;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  views: number;
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
 * undefined for every id that is not a live secret, malformed ones included, alike; an answer to
 * a request is live for its requester's key only.
 */
export async function claim(id: string, now: number, caller: string): Promise<ClaimedSecret | undefined> {
  return SECRET_ID_PATTERN.test(id) ? claimSecret(id, now, caller) : undefined;
}

export async function revoke(id: string, owner: string, now: number): Promise<boolean> {
  return SECRET_ID_PATTERN.test(id) ? revokeSecret(id, owner, now) : false;
}
