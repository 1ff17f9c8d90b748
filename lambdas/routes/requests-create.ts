import { readConfig } from '../config/functions';
import { createRequest } from '../use-cases/requests';
import { authenticatedRoute } from '../http/route';
import { createRequestBody, type CreateRequestResponse } from '../http/schemas';

const config = readConfig();

export const handler = authenticatedRoute(
  { body: { schema: createRequestBody, required: true } },
  async ({ body, caller, now, idempotent }) => ({
    statusCode: 201,
    body: (await createRequest(body, caller.keyHash, config.siteUrl, now, idempotent)) satisfies CreateRequestResponse,
  }),
);
