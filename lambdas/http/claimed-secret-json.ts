import type { ClaimedSecret } from '../use-cases/secrets';
import type { ClaimSecretResponse } from '#contract/schemas';

/** A claim's body as JSON text with the data spliced in: base64 has nothing to escape, and it may be 5 MiB. */
export function claimedSecretJson(secret: ClaimedSecret): string {
  const rest = JSON.stringify({
    type: secret.type,
    filename: secret.filename ?? null,
    mimetype: secret.mimetype ?? null,
    remaining: secret.remaining,
  } satisfies Omit<ClaimSecretResponse, 'data'>);
  return `{"data":"${secret.data}",${rest.slice(1)}`;
}
