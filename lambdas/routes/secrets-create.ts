import { ERRORS } from '../definitions/errors';
import { readConfig } from '../config/functions';
import { STILL_IN_FLIGHT, createSecret } from '../use-cases/secrets';
import { addressBytesWindow } from '../use-cases/stored-bytes';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/http-error';
import { authenticatedRoute, retryAfterSeconds, stillInFlight } from '../http/route';
import { createSecretBody } from '../http/request-bodies';
import type { CreateSecretResponse } from '../http/schemas';

const config = readConfig();

export const handler = authenticatedRoute(
  { body: { schema: createSecretBody, required: true }, fullKeyOnly: true, storedBytes: config.storedBytes },
  async ({ event, body, bodyBytes, caller, now, idempotent }) => {
    const addressDay = await addressBytesWindow(clientAddress(event, config.originSecret), now, bodyBytes, config.storedBytes);
    if (addressDay?.limited) {
      throw new HttpError(429, ERRORS.storedBytesPerAddressLimited, { 'retry-after': retryAfterSeconds(addressDay.retryAt, now) });
    }
    const created = await createSecret(body, caller.keyHash, config.siteUrl, now, idempotent);
    if (created === STILL_IN_FLIGHT) throw stillInFlight();
    return { statusCode: 201, body: created satisfies CreateSecretResponse };
  },
);
