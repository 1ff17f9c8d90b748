import { KEY_LIFETIME_MS, SECRET_DEFAULTS, SECRET_ID_BYTES, SECRET_TTLS } from '../../lambdas/definitions/limits';
import { SECRET_HEAD_SK } from '../../lambdas/definitions/tables';
import { generateApiKey, generateWebhookSecret, hashApiKey } from '../../lambdas/core/api-keys';
import { randomUrlSafeId } from '../../lambdas/core/random';
import { epochSeconds } from '../../lambdas/store/dynamo';
import { putKey } from '../../lambdas/store/key-store';
import { putSecret, type HeadItem } from '../../lambdas/store/secret-store';

/**
 * What a sample's one request needs in the tables, written by the bench process straight through
 * the stores (its environment points them at the bench's DynamoDB Local). Every sample gets its
 * own: a key is rate limited, and a claimed or revoked secret is gone.
 */

export interface FreshKey {
  key: string;
  keyHash: string;
}

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

/** A small text secret, as POST /secrets with only `data` creates it. */
export const SECRET_DATA = Buffer.from('cold start').toString('base64');

/** A live secret owned by `owner`, with POST /secrets' defaults; its id. */
export async function freshSecret(owner: FreshKey): Promise<string> {
  const id = randomUrlSafeId(SECRET_ID_BYTES);
  const now = Date.now();
  await putSecret({
    id,
    owner: owner.keyHash,
    data: SECRET_DATA,
    type: SECRET_DEFAULTS.type,
    views: SECRET_DEFAULTS.views,
    created: now,
    expires: now + SECRET_TTLS[SECRET_DEFAULTS.ttl],
  });
  return id;
}

/**
 * The head item of a small text secret that was never written: what the stream record of its
 * creation carries. Written for real, local mode's own pipeline would act on it at the same time.
 */
export function unsavedSecretHead(owner: FreshKey): HeadItem {
  const now = Date.now();
  const expires = now + SECRET_TTLS[SECRET_DEFAULTS.ttl];
  return {
    pk: randomUrlSafeId(SECRET_ID_BYTES),
    sk: SECRET_HEAD_SK,
    owner: owner.keyHash,
    type: SECRET_DEFAULTS.type,
    views: SECRET_DEFAULTS.views,
    remaining: SECRET_DEFAULTS.views,
    created: now,
    expires,
    ttl: epochSeconds(expires),
    data: SECRET_DATA,
  };
}
