import { readConfig } from '../config/functions';
import { createSecret } from '../use-cases/secrets';
import { authenticatedRoute } from '../http/route';
import { createSecretBody, type CreateSecretResponse } from '../http/schemas';

const config = readConfig();

export const handler = authenticatedRoute(
  { body: { schema: createSecretBody, required: true }, fullKeyOnly: true },
  async ({ body, caller, now }) => ({
    statusCode: 201,
    body: (await createSecret(body, caller.keyHash, config.siteUrl, now)) satisfies CreateSecretResponse,
  }),
);
