import { ERRORS } from '../definitions/errors';
import { claim } from '../use-cases/secrets';
import { claimedSecretJson } from '../http/claimed-secret-json';
import { HttpError } from '../http/http-error';
import { JsonText, authenticatedRoute } from '../http/route';

export const handler = authenticatedRoute({}, async ({ event, caller, now }) => {
  const secret = await claim(event.pathParameters?.id ?? '', now, caller.keyHash);
  if (!secret) throw new HttpError(404, ERRORS.secretNotFound);
  return { statusCode: 200, body: new JsonText(claimedSecretJson(secret)) };
});
