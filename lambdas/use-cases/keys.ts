import type { CreateAccess } from '../config/create-access';
import { verifySignInToken } from '../identity/sign-in-tokens';
import { KEY_LIFETIME_MS } from '#contract/limits';
import { recordKeyCreationAttempt } from '../store/key-creation-log';
import { putKey, type StoredKey } from '../store/key-store';
import { generateApiKey, generateWebhookSecret, hashApiKey, sha256Hex } from '../rules/api-keys';
import { signInSubjectHash } from '../rules/sign-in-subject';

export type KeyCreation =
  | { outcome: 'created'; key: string; expires: number; webhookSecret: string }
  | { outcome: 'limited'; retryAt: number }
  /** createAccess=signed-in: the token is not one the deployment accepts; nothing was written. */
  | { outcome: 'refused'; reason: string }
  /** createAccess=signed-in: a valid token of an account the deployment does not let in; nothing was written. */
  | { outcome: 'not-allowed'; reason: string }
  /** createAccess=signed-in: the issuer's keys could not be fetched; nothing was written. */
  | { outcome: 'issuer-unavailable' };

/** What the new key may do: everything, or (signed-in, without a token) reveal only. */
type Holder = { revealOnly?: true; subject?: string };

/**
 * open: a full key for anyone. signed-in: a full key for a valid sign-in token (recorded with its
 * subject's hash), a reveal-only key without one. The token is checked before anything is
 * written, so a bad token costs no DynamoDB call and uses none of the address's key creations.
 */
async function holderOf(
  createAccess: CreateAccess,
  signInToken: string | undefined,
): Promise<Holder | Exclude<KeyCreation, { outcome: 'created' | 'limited' }>> {
  if (createAccess.mode === 'open') return {};
  if (signInToken === undefined) return { revealOnly: true };
  const verdict = await verifySignInToken(signInToken, createAccess);
  if (verdict.outcome === 'unavailable') return { outcome: 'issuer-unavailable' };
  if (verdict.outcome === 'invalid') return { outcome: 'refused', reason: verdict.reason };
  if (verdict.outcome === 'not-allowed') return verdict;
  return { subject: signInSubjectHash(verdict.issuer, verdict.subject) };
}

/** Issues a key unless the token is refused or the client's address has used up its key creations for the hour. */
export async function createApiKey(request: {
  sourceIp: string;
  webhook: string | undefined;
  perIpPerHour: number;
  now: number;
  createAccess: CreateAccess;
  /** The bearer token POST /keys was sent with, if any; read only when signed-in. */
  signInToken: string | undefined;
}): Promise<KeyCreation> {
  const holder = await holderOf(request.createAccess, request.signInToken);
  if ('outcome' in holder) return holder;
  const window = await recordKeyCreationAttempt(sha256Hex(request.sourceIp), request.now, request.perIpPerHour);
  if (window.count > request.perIpPerHour) return { outcome: 'limited', retryAt: window.resetAt };

  const key = generateApiKey();
  const stored: StoredKey = {
    keyHash: hashApiKey(key),
    created: request.now,
    expires: request.now + KEY_LIFETIME_MS,
    webhookSecret: generateWebhookSecret(),
    ...(request.webhook ? { webhook: request.webhook } : {}),
    ...holder,
  };
  await putKey(stored);
  return { outcome: 'created', key, expires: stored.expires, webhookSecret: stored.webhookSecret };
}
