import { KEY_LIFETIME_MS, SECRET_ID_BYTES, SECRET_TTLS } from '../lambdas/definitions/limits';
import { generateApiKey, generateWebhookSecret, hashApiKey } from '../lambdas/core/api-keys';
import { randomUrlSafeId } from '../lambdas/core/random';
import { putKey } from '../lambdas/store/key-store';
import { putSecret } from '../lambdas/store/secret-store';

/**
 * Keys and secrets made straight in the tables (not through the API, and not measured), so a
 * measurement can spend all its requests on the route it times. Needs the bench environment.
 */

export interface Fixture {
  key: string;
  keyHash: string;
}

/** Requests one key may make in a measurement: under the 100 a minute every key is allowed. */
export const REQUESTS_PER_KEY = 50;

export async function makeKeys(count: number): Promise<Fixture[]> {
  const now = Date.now();
  return inBatches(count, async () => {
    const key = generateApiKey();
    const keyHash = hashApiKey(key);
    await putKey({ keyHash, created: now, expires: now + KEY_LIFETIME_MS, webhookSecret: generateWebhookSecret() });
    return { key, keyHash };
  });
}

/** `count` secrets of `data`, owned in turn by `owners`, each with `views` views. */
export async function makeSecrets(owners: readonly Fixture[], count: number, data: string, views: number): Promise<string[]> {
  const now = Date.now();
  let made = 0;
  return inBatches(count, async () => {
    const owner = owners[made++ % owners.length] as Fixture;
    const id = randomUrlSafeId(SECRET_ID_BYTES);
    await putSecret({ id, owner: owner.keyHash, data, type: 'text', views, created: now, expires: now + SECRET_TTLS['1d'] });
    return id;
  });
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
