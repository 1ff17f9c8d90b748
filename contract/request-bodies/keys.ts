// zod/mini: the same validation core as zod's chained API, without the methods that pull all of
// zod into every bundle that validates (~70 KB less minified code to load at cold start).
import * as z from 'zod/mini';
import { ERRORS } from '../errors';
import { WEBHOOK_URL_MAX_LENGTH } from '../limits';

/**
 * One module per resource: a zod schema is built when its module loads, so a route bundles and
 * builds only the bodies it validates (docs/decisions/cold-start-module-evaluation.md).
 */

/** checkWebhookUrl (webhooks/rules/webhook-url.ts) says what else a webhook URL must be; the length is told here too, for the document. */
const webhookUrl = (typeError: string) => z.string({ error: typeError }).check(z.maxLength(WEBHOOK_URL_MAX_LENGTH, { error: ERRORS.webhook }));

export const createKeyBody = z.strictObject({
  webhook: z.optional(webhookUrl(ERRORS.webhook)),
});

export const updateKeyBody = z.strictObject({
  webhook: webhookUrl(ERRORS.webhookRequired),
});
