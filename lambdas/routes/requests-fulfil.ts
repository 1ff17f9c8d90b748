import { ERRORS } from '../definitions/errors';
import { fulfil } from '../use-cases/requests';
import { STILL_IN_FLIGHT } from '../use-cases/secrets';
import { HttpError } from '../http/http-error';
import { authenticatedRoute, stillInFlight } from '../http/route';
import { fulfilRequestBody } from '../http/request-bodies';

/** Any key, once: the answer becomes the requester's secret, under the request's id. */
export const handler = authenticatedRoute({ body: { schema: fulfilRequestBody, required: true } }, async ({ event, body, now, idempotent }) => {
  const outcome = await fulfil(event.pathParameters?.id ?? '', body, now, idempotent);
  if (outcome === STILL_IN_FLIGHT) throw stillInFlight();
  if (outcome === 'not-found') throw new HttpError(404, ERRORS.requestNotFound);
  if (outcome === 'already-fulfilled') throw new HttpError(409, ERRORS.requestFulfilled);
  return { statusCode: 201, body: { fulfilled: true } };
});
