import { ERRORS } from '../definitions/errors';
import { claim } from '../use-cases/secrets';
import { claimedSecretJson } from '../http/claimed-secret-json';
import { HttpError } from '../http/http-error';
import { JsonText, authenticatedRoute } from '../http/route';

export const handler = authenticatedRoute({}, async ({ event }) => {
  // The claim's own time, not the request's: its retry window starts as it sends its update.
  const secret = await claim(event.pathParameters?.id ?? '', Date.now());
  if (!secret) throw new HttpError(404, ERRORS.secretNotFound);
  return { statusCode: 200, body: new JsonText(claimedSecretJson(secret)) };
});
