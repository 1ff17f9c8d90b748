import { ERRORS } from '#contract/errors';
import { HttpError } from '../http/http-error';
import { authenticatedRoute } from '../http/route';
import type { WebhookTestResponse } from '#contract/schemas';
import { testWebhookJob } from '../webhooks/events';
import { enqueueWebhookJob } from '../webhooks/queue/webhook-jobs';

/** Queues a webhook.test event; the pipeline delivers it as any other (signed, retried, dead-lettered). */
export const handler = authenticatedRoute({ fullKeyOnly: true }, async ({ caller }) => {
  if (!caller.stored.webhook) throw new HttpError(400, ERRORS.noWebhook);
  const job = testWebhookJob(caller.keyHash, Date.now());
  await enqueueWebhookJob(job);
  return { statusCode: 202, body: { eventId: job.eventId } satisfies WebhookTestResponse };
});
