import { ERRORS } from '../definitions/errors';
import { claim } from '../core/secrets';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';

export const handler = authenticatedRoute({}, async ({ event, now }) => {
  const secret = await claim(event.pathParameters?.id ?? '', now);
  if (!secret) throw new HttpError(404, ERRORS.secretNotFound);
  return {
    statusCode: 200,
    body: {
      data: secret.data,
      type: secret.type,
      filename: secret.filename ?? null,
      mimetype: secret.mimetype ?? null,
      remaining: secret.remaining,
    },
  };
});
