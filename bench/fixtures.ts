import { createECDH } from 'node:crypto';
import { KEY_LIFETIME_MS, SECRET_DEFAULTS, SECRET_ID_BYTES, SECRET_TTLS } from '#contract/limits';
import { generateApiKey, generateWebhookSecret, hashApiKey } from '#lambdas/rules/api-keys';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { putKey } from '#lambdas/store/key-store';
import { putRequest } from '#lambdas/store/request-store';
import { putSecret } from '#lambdas/store/secret-store';

/**
 * Keys and secrets made straight in the tables (not through the API, and not measured), so a
 * measurement can spend all its requests on the route it times. The bench process's environment
 * points the stores at the bench's DynamoDB Local. A key is rate limited and a claimed or revoked
 * secret is gone, so measurements take fresh ones.
 */

export interface FreshKey {
  key: string;
  keyHash: string;
}

/** A small text secret, as POST /secrets with only `data` creates it. */
export const SECRET_DATA = Buffer.from('cold start').toString('base64');

/** Requests one key may make in a measurement: under the 100 a minute every key is allowed. */
export const REQUESTS_PER_KEY = 50;

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

export const makeKeys = (count: number): Promise<FreshKey[]> => inBatches(count, () => freshKey());

/** `count` secrets of `data`, owned in turn by `owners` (secret i by owner i mod owners), each with `views` views. */
export function makeSecrets(owners: readonly FreshKey[], count: number, data: string, views: number): Promise<string[]> {
  let made = 0;
  return inBatches(count, () => freshSecret(owners[made++ % owners.length] as FreshKey, data, views));
}

/** The keys `requests` requests need so that none is rate limited. */
export const keysFor = (requests: number): number => Math.ceil(requests / REQUESTS_PER_KEY);

const FIXTURE_CONCURRENCY = 16;

async function inBatches<T>(count: number, make: () => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  while (made.length < count) {
    const batch = Math.min(FIXTURE_CONCURRENCY, count - made.length);
    made.push(...(await Promise.all(Array.from({ length: batch }, make))));
  }
  return made;
}
