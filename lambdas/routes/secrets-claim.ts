import { ERRORS } from '../definitions/errors';
import { STILL_IN_FLIGHT, claim } from '../use-cases/secrets';
import { claimedSecretJson } from '../http/claimed-secret-json';
import { HttpError } from '../http/http-error';
import { JsonText, authenticatedRoute, stillInFlight } from '../http/route';

export const handler = authenticatedRoute({}, async ({ event, now, idempotent }) => {
  const secret = await claim(event.pathParameters?.id ?? '', now, idempotent);
  if (secret === STILL_IN_FLIGHT) throw stillInFlight();
  if (!secret) throw new HttpError(404, ERRORS.secretNotFound);
  return { statusCode: 200, body: new JsonText(claimedSecretJson(secret)) };
});
