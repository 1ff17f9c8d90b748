import { ERRORS } from '#contract/errors';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';
import type { DeleteResponse } from '#contract/schemas';
import { deleteKey } from '../store/key-store';

export const handler = authenticatedRoute({}, async ({ caller }) => {
  if (!(await deleteKey(caller.keyHash))) throw new HttpError(401, ERRORS.invalidApiKey);
  return { statusCode: 200, body: { deleted: true } satisfies DeleteResponse };
});
