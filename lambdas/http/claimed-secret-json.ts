import type { ClaimedSecret } from '../use-cases/secrets';
import type { ClaimSecretResponse } from '#contract/schemas';

/**
 * A claim's response body as JSON text, the same text JSON.stringify makes of
 * {data, type, filename, mimetype, remaining}, with the data spliced in instead of serialized.
 * The data is standard base64 (the create route accepts nothing else, and nothing else writes
 * it), so it has no character to escape; JSON.stringify would still scan and copy all of it,
 * about 10 ms of a 5 MiB claim. The other fields, filename and mimetype included, go through
 * JSON.stringify as usual.
 */
export function claimedSecretJson(secret: ClaimedSecret): string {
  const rest = JSON.stringify({
    type: secret.type,
    filename: secret.filename ?? null,
    mimetype: secret.mimetype ?? null,
    remaining: secret.remaining,
  } satisfies Omit<ClaimSecretResponse, 'data'>);
  return `{"data":"${secret.data}",${rest.slice(1)}`;
}
