import { readFunctionSettings } from '../config/environment';
import { ERRORS } from '#contract/errors';
import { fulfil } from '../use-cases/requests';
import { STILL_IN_FLIGHT } from '../use-cases/secrets';
import { guardAddressBytes } from '../http/address-bytes-guard';
import { isRepeat } from '../use-cases/idempotency';
import { HttpError } from '../http/http-error';
import { authenticatedRoute, stillInFlight } from '../http/route';
import { fulfilRequestBody } from '#contract/request-bodies/fulfil-request';

const config = readFunctionSettings('requests-fulfil');

/** Any key, once: the answer becomes the requester's secret; its bytes count as a secret's do. */
export const handler = authenticatedRoute(
  { body: { schema: fulfilRequestBody, required: true }, storedBytes: config },
  async ({ event, body, bodyBytes, now, idempotent }) => {
    // A repeat is answered from its first's work: it costs no quota.
    if (!isRepeat(idempotent)) await guardAddressBytes(event, now, bodyBytes, config);
    const outcome = await fulfil(event.pathParameters?.id ?? '', body, now, idempotent);
    if (outcome === STILL_IN_FLIGHT) throw stillInFlight();
    if (outcome === 'not-found') throw new HttpError(404, ERRORS.requestNotFound);
    if (outcome === 'already-fulfilled') throw new HttpError(409, ERRORS.requestFulfilled);
    return { statusCode: 201, body: { fulfilled: true } };
  },
);
