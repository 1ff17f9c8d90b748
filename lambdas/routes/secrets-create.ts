import { readConfig } from '../config/functions';
import { STILL_IN_FLIGHT, createSecret } from '../use-cases/secrets';
import { authenticatedRoute, stillInFlight } from '../http/route';
import { createSecretBody, type CreateSecretResponse } from '../http/schemas';

const config = readConfig();

export const handler = authenticatedRoute({ body: { schema: createSecretBody, required: true } }, async ({ body, caller, now, idempotent }) => {
  const created = await createSecret(body, caller.keyHash, config.siteUrl, now, idempotent);
  if (created === STILL_IN_FLIGHT) throw stillInFlight();
  return { statusCode: 201, body: created satisfies CreateSecretResponse };
});
