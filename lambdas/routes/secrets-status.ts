import { ERRORS } from '#contract/errors';
import { secretStatus } from '../use-cases/receipts';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';
import type { SecretStatusResponse } from '#contract/schemas';

export const handler = authenticatedRoute({}, async ({ event, caller, now }) => {
  const receipt = await secretStatus(event.pathParameters?.id ?? '', caller.keyHash, now);
  // The claim's own 404: a stranger must not learn that the id exists.
  if (!receipt) throw new HttpError(404, ERRORS.secretNotFound);
  return { statusCode: 200, body: receipt satisfies SecretStatusResponse };
});
