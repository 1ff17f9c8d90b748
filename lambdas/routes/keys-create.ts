import { ERRORS } from '#contract/errors';
import { createAccessOf } from '../config/create-access';
import { readFunctionSettings } from '../config/environment';
import { createApiKey } from '../use-cases/keys';
import { checkWebhookUrl } from '../webhooks/rules/webhook-url';
import { clientAddress } from '../http/client-address';
import { header } from '../http/headers';
import { HttpError } from '../http/http-error';
import { publicRoute, retryAfterSeconds } from '../http/route';
import { createKeyBody } from '#contract/request-bodies/keys';
import type { CreateKeyResponse } from '#contract/schemas';

const config = readFunctionSettings('keys-create');
const createAccess = createAccessOf(config);

/** signed-in: the token of `Authorization: Bearer <token>`; undefined without the header; 401 for any other form. */
function signInTokenOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const token = /^bearer +(\S+)\s*$/i.exec(authorization)?.[1];
  if (token === undefined) throw new HttpError(401, ERRORS.invalidSignInToken('send Authorization: Bearer <token>'));
  return token;
}

export const handler = publicRoute({ body: { schema: createKeyBody, required: false } }, async ({ event, body, now }) => {
  const webhook = body.webhook === undefined ? undefined : checkWebhookUrl(body.webhook, config.webhookAllowLoopback);
  if (webhook && !webhook.ok) throw new HttpError(400, webhook.error);

  const result = await createApiKey({
    sourceIp: clientAddress(event, config.originSecret),
    webhook: webhook?.url,
    perIpPerHour: config.keysPerIpPerHour,
    now,
    createAccess,
    // The contract's POST /keys reads no credentials: an open deployment ignores the header.
    signInToken: createAccess.mode === 'signed-in' ? signInTokenOf(header(event, 'authorization')) : undefined,
  });
  if (result.outcome === 'refused') throw new HttpError(401, ERRORS.invalidSignInToken(result.reason));
  if (result.outcome === 'not-allowed') throw new HttpError(403, ERRORS.accountNotAllowed(result.reason));
  if (result.outcome === 'issuer-unavailable') throw new HttpError(503, ERRORS.issuerUnavailable);
  if (result.outcome === 'limited') {
    throw new HttpError(429, ERRORS.keyCreationLimited, { 'retry-after': retryAfterSeconds(result.retryAt, now) });
  }
  return { statusCode: 201, body: { key: result.key, expires: result.expires, webhookSecret: result.webhookSecret } satisfies CreateKeyResponse };
});
