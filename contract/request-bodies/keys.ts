import * as z from 'zod/mini';
import { ERRORS } from '../errors';
import { WEBHOOK_URL_MAX_LENGTH } from '../limits';

/** checkWebhookUrl (webhooks/rules/webhook-url.ts) says what else a webhook URL must be; the length is told here too, for the document. */
const webhookUrl = (typeError: string) => z.string({ error: typeError }).check(z.maxLength(WEBHOOK_URL_MAX_LENGTH, { error: ERRORS.webhook }));

export const createKeyBody = z.strictObject({
  webhook: z.optional(webhookUrl(ERRORS.webhook)),
});

export const updateKeyBody = z.strictObject({
  webhook: webhookUrl(ERRORS.webhookRequired),
});
