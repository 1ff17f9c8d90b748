import { ERRORS } from '#contract/errors';
import { requestForSender } from '../use-cases/requests';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';
import type { RequestDetailsResponse } from '#contract/schemas';

/** Any key: the request's id is the sender's capability. */
export const handler = authenticatedRoute({}, async ({ event, now }) => {
  const request = await requestForSender(event.pathParameters?.id ?? '', now);
  if (request.outcome === 'not-found') throw new HttpError(404, ERRORS.requestNotFound);
  if (request.outcome === 'fulfilled') throw new HttpError(409, ERRORS.requestFulfilled);
  return {
    statusCode: 200,
    body: { publicKey: request.publicKey, note: request.note ?? null, expires: request.expires } satisfies RequestDetailsResponse,
  };
});
