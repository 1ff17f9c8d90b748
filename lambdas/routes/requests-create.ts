import { readFunctionSettings } from '../config/environment';
import { createRequest } from '../use-cases/requests';
import { authenticatedRoute } from '../http/route';
import { createRequestBody } from '#contract/request-bodies/create-request';
import type { CreateRequestResponse } from '#contract/schemas';

const config = readFunctionSettings('requests-create');

export const handler = authenticatedRoute(
  // A request invites a secret billed to its owner: asking, like sharing, needs a full key.
  { body: { schema: createRequestBody, required: true }, fullKeyOnly: true },
  async ({ body, caller, now, idempotent }) => ({
    statusCode: 201,
    body: (await createRequest(body, caller.keyHash, config.siteUrl, now, idempotent)) satisfies CreateRequestResponse,
  }),
);
