import { authenticatedRoute } from '../http/route';
import type { GetKeyResponse } from '../http/schemas';

export const handler = authenticatedRoute({}, async ({ caller }) => ({
  statusCode: 200,
  body: {
    hint: caller.hint,
    ...(caller.stored.webhook ? { webhook: caller.stored.webhook } : {}),
    created: caller.stored.created,
    expires: caller.stored.expires,
    webhookSecret: caller.stored.webhookSecret,
  } satisfies GetKeyResponse,
}));
