import { ERRORS } from '../definitions/errors';
import { readConfig } from '../core/config';
import { checkWebhookUrl } from '../core/webhook-url';
import { setWebhook } from '../store/key-store';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';
import { updateKeyBody, type UpdateKeyResponse } from '../http/schemas';

const config = readConfig();

export const handler = authenticatedRoute(
  { body: { schema: updateKeyBody, required: true } },
  async ({ body, caller }) => {
    let webhook: string | undefined;
    if (body.webhook !== '') {
      const verdict = checkWebhookUrl(body.webhook, config.webhookAllowLoopback);
      if (!verdict.ok) throw new HttpError(400, verdict.error);
      webhook = verdict.url;
    }
    // The key was live a moment ago; failing now means it was revoked in between.
    if (!(await setWebhook(caller.keyHash, webhook))) throw new HttpError(401, ERRORS.invalidApiKey);
    return { statusCode: 200, body: { updated: true } satisfies UpdateKeyResponse };
  },
);
