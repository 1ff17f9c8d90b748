import { readFunctionSettings } from '../config/environment';
import { STILL_IN_FLIGHT, createSecret } from '../use-cases/secrets';
import { guardAddressBytes } from '../http/address-bytes-guard';
import { isRepeat } from '../use-cases/idempotency';
import { authenticatedRoute, stillInFlight } from '../http/route';
import { createSecretBody } from '#contract/request-bodies/secrets';
import type { CreateSecretResponse } from '#contract/schemas';

const config = readFunctionSettings('secrets-create');

export const handler = authenticatedRoute(
  { body: { schema: createSecretBody, required: true }, fullKeyOnly: true, storedBytes: config },
  async ({ event, body, bodyBytes, caller, now, idempotent }) => {
    // A repeat is answered from its first's work: it costs no quota.
    if (!isRepeat(idempotent)) await guardAddressBytes(event, now, bodyBytes, config);
    const created = await createSecret(body, caller.keyHash, config.siteUrl, now, idempotent);
    if (created === STILL_IN_FLIGHT) throw stillInFlight();
    return { statusCode: 201, body: created satisfies CreateSecretResponse };
  },
);
