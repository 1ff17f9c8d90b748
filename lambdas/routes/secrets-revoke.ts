import { ERRORS } from '#contract/errors';
import { STILL_IN_FLIGHT, revoke } from '../use-cases/secrets';
import { HttpError } from '../http/http-error';
import { authenticatedRoute, stillInFlight } from '../http/route';
import type { DeleteResponse } from '#contract/schemas';

export const handler = authenticatedRoute({ fullKeyOnly: true }, async ({ event, caller, now, idempotent }) => {
  const revoked = await revoke(event.pathParameters?.id ?? '', caller.keyHash, now, idempotent);
  if (revoked === STILL_IN_FLIGHT) throw stillInFlight();
  if (!revoked) throw new HttpError(404, ERRORS.secretNotFound);
  return { statusCode: 200, body: { deleted: true } satisfies DeleteResponse };
});
