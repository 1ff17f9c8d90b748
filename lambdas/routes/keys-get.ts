import { authenticatedRoute } from '../http/route';
import type { GetKeyResponse } from '#contract/schemas';

export const handler = authenticatedRoute({}, ({ caller }) =>
  Promise.resolve({
    statusCode: 200,
    body: {
      hint: caller.hint,
      ...(caller.stored.webhook ? { webhook: caller.stored.webhook } : {}),
      created: caller.stored.created,
      expires: caller.stored.expires,
      webhookSecret: caller.stored.webhookSecret,
    } satisfies GetKeyResponse,
  }),
);
