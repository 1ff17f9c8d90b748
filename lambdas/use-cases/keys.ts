import { KEY_LIFETIME_MS } from '../definitions/limits';
import { recordKeyCreationAttempt } from '../store/key-creation-log';
import { deleteKey, putKey, setWebhook, type StoredKey } from '../store/key-store';
import { generateApiKey, generateWebhookSecret, hashApiKey, sha256Hex } from '../rules/api-keys';

export type KeyCreation =
  | { outcome: 'created'; key: string; expires: number; webhookSecret: string }
  | { outcome: 'limited'; retryAt: number };

/** Issues a key unless the client's address has used up its key creations for the hour. */
export async function createApiKey(request: {
  sourceIp: string;
  webhook: string | undefined;
  perIpPerHour: number;
  now: number;
}): Promise<KeyCreation> {
  const window = await recordKeyCreationAttempt(sha256Hex(request.sourceIp), request.now, request.perIpPerHour);
  if (window.count > request.perIpPerHour) return { outcome: 'limited', retryAt: window.resetAt };

  const key = generateApiKey();
  const stored: StoredKey = {
    keyHash: hashApiKey(key),
    created: request.now,
    expires: request.now + KEY_LIFETIME_MS,
    webhookSecret: generateWebhookSecret(),
    ...(request.webhook ? { webhook: request.webhook } : {}),
  };
  await putKey(stored);
  return { outcome: 'created', key, expires: stored.expires, webhookSecret: stored.webhookSecret };
}

// Routes reach the stores only through use-cases (test/unit/layers.test.ts), however thin.

/** Revokes the caller's key; false if a concurrent request revoked it first. */
export const revokeApiKey = (keyHash: string): Promise<boolean> => deleteKey(keyHash);

/**
 * Sets the key's webhook (a URL checkWebhookUrl accepted), or removes it when undefined; false if
 * the key was revoked since it authenticated the request.
 */
export const setKeyWebhook = (keyHash: string, webhook: string | undefined): Promise<boolean> => setWebhook(keyHash, webhook);
