import { createECDH } from 'node:crypto';
import { KEY_LIFETIME_MS, SECRET_DEFAULTS, SECRET_ID_BYTES, SECRET_TTLS } from '#contract/limits';
import { generateApiKey, generateWebhookSecret, hashApiKey } from '#lambdas/rules/api-keys';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { putKey } from '#lambdas/store/key-store';
import { putRequest } from '#lambdas/store/request-store';
import { putSecret } from '#lambdas/store/secret-store';
import { dataFilling } from '#test/support/api';

/**
 * Keys, secrets and requests made straight in the tables (not through the API, and not measured),
 * so that each measured request finds what it needs. A key is rate limited and a claimed or revoked
 * secret is gone, so every request takes fresh ones.
 */

export interface FreshKey {
  key: string;
  keyHash: string;
}

/** Data that makes a 1 KB body: the cost model's typical secret. */
export const SECRET_DATA = dataFilling(1024);

export async function freshKey(webhook?: string): Promise<FreshKey> {
  const key = generateApiKey();
  const keyHash = hashApiKey(key);
  const now = Date.now();
  await putKey({
    keyHash,
    created: now,
    expires: now + KEY_LIFETIME_MS,
    webhookSecret: generateWebhookSecret(),
    ...(webhook ? { webhook } : {}),
  });
  return { key, keyHash };
}

/** A live secret owned by `owner`, with POST /secrets' defaults unless told otherwise; its id. */
export async function freshSecret(owner: FreshKey, data = SECRET_DATA, views: number = SECRET_DEFAULTS.views): Promise<string> {
  const id = randomUrlSafeId(SECRET_ID_BYTES);
  const now = Date.now();
  await putSecret({
    id,
    owner: owner.keyHash,
    data,
    type: SECRET_DEFAULTS.type,
    views,
    created: now,
    expires: now + SECRET_TTLS[SECRET_DEFAULTS.ttl],
  });
  return id;
}

/** A requester's P-256 public key as POST /requests takes it: the uncompressed point, base64url. */
export const REQUEST_PUBLIC_KEY = createECDH('prime256v1').generateKeys().toString('base64url');

/** An open secret request of `owner`, with POST /requests' default ttl; its id. */
export async function freshRequest(owner: FreshKey): Promise<string> {
  const id = randomUrlSafeId(SECRET_ID_BYTES);
  const now = Date.now();
  const lifetime = SECRET_TTLS[SECRET_DEFAULTS.ttl];
  await putRequest({ id, owner: owner.keyHash, publicKey: REQUEST_PUBLIC_KEY, created: now, expires: now + lifetime, lifetime });
  return id;
}
