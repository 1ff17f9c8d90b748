import { ERRORS } from '#contract/errors';
import { readFunctionSettings } from '../config/environment';
import { checkWebhookUrl } from '../webhooks/rules/webhook-url';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';
import { updateKeyBody } from '#contract/request-bodies/keys';
import type { UpdateKeyResponse } from '#contract/schemas';
import { setWebhook } from '../store/key-store';

const config = readFunctionSettings('keys-update');

export const handler = authenticatedRoute({ body: { schema: updateKeyBody, required: true }, fullKeyOnly: true }, async ({ body, caller }) => {
  let webhook: string | undefined;
  if (body.webhook !== '') {
    const verdict = checkWebhookUrl(body.webhook, config.webhookAllowLoopback);
    if (!verdict.ok) throw new HttpError(400, verdict.error);
    webhook = verdict.url;
  }
  // The key was live a moment ago; failing now means it was revoked in between.
  if (!(await setWebhook(caller.keyHash, webhook))) throw new HttpError(401, ERRORS.invalidApiKey);
  return { statusCode: 200, body: { updated: true } satisfies UpdateKeyResponse };
});
