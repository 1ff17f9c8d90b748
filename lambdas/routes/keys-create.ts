import { ERRORS } from '../definitions/errors';
import { readConfig } from '../config/functions';
import { createApiKey } from '../use-cases/keys';
import { checkWebhookUrl } from '../rules/webhook-url';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/http-error';
import { publicRoute, retryAfterSeconds } from '../http/route';
import { createKeyBody, type CreateKeyResponse } from '../http/schemas';

const config = readConfig();

export const handler = publicRoute({ body: { schema: createKeyBody, required: false } }, async ({ event, body, now }) => {
  const webhook = body.webhook === undefined ? undefined : checkWebhookUrl(body.webhook, config.webhookAllowLoopback);
  if (webhook && !webhook.ok) throw new HttpError(400, webhook.error);

  const result = await createApiKey({
    sourceIp: clientAddress(event, config.originSecret),
    webhook: webhook?.url,
    perIpPerHour: config.keysPerIpPerHour,
    now,
  });
  if (result.outcome === 'limited') {
    throw new HttpError(429, ERRORS.keyCreationLimited, { 'retry-after': retryAfterSeconds(result.retryAt, now) });
  }
  return { statusCode: 201, body: { key: result.key, expires: result.expires, webhookSecret: result.webhookSecret } satisfies CreateKeyResponse };
});
