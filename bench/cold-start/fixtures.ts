import { SECRET_DEFAULTS, SECRET_ID_BYTES, SECRET_TTLS } from '#contract/limits';
import { SECRET_HEAD_SK } from '#lambdas/definitions/tables';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { epochSeconds } from '#lambdas/store/dynamo';
import type { HeadItem } from '#lambdas/store/secret-store';
import { SECRET_DATA, type FreshKey } from '../fixtures';

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
