import { ERRORS } from '../definitions/errors';
import { revoke } from '../use-cases/secrets';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';
import type { DeleteResponse } from '../http/schemas';

export const handler = authenticatedRoute({ fullKeyOnly: true }, async ({ event, caller, now }) => {
  if (!(await revoke(event.pathParameters?.id ?? '', caller.keyHash, now))) {
    throw new HttpError(404, ERRORS.secretNotFound);
  }
  return { statusCode: 200, body: { deleted: true } satisfies DeleteResponse };
});
