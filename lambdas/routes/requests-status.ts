import { ERRORS } from '#contract/errors';
import { requestStatus } from '../use-cases/requests';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';
import type { RequestStatusResponse } from '#contract/schemas';

/** The requester's key only: any other gets the 404 of an unknown id. */
export const handler = authenticatedRoute({}, async ({ event, caller, now }) => {
  const id = event.pathParameters?.id ?? '';
  const status = await requestStatus(id, caller.keyHash, now);
  if (!status) throw new HttpError(404, ERRORS.requestNotFound);
  return {
    statusCode: 200,
    body: {
      state: status.state,
      publicKey: status.publicKey,
      note: status.note ?? null,
      expires: status.expires,
      fulfilledAt: status.fulfilledAt ?? null,
      secret: status.state === 'fulfilled' ? id : null,
    } satisfies RequestStatusResponse,
  };
});
