// zod/mini: the validation core without the chained API, a fraction of zod to load at cold start.
import * as z from 'zod/mini';
import { SECRET_ID_MAX_LENGTH, WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from '#contract/limits';

/**
 * A webhook job as it travels through the queue: ids and the event, never secret data. The
 * owner is the SHA-256 of the API key that created the secret; its webhook URL and signing
 * secret are looked up when the job is delivered, so a changed or removed webhook takes effect
 * for events still in flight.
 */

const nonEmptyString = () => z.string().check(z.minLength(1));

const timestamp = () => z.number().check(z.int(), z.nonnegative());

/** An event of a secret or a request, `data.id` its id. */
export const secretEventSchema = z.object({
  event: z.enum(WEBHOOK_EVENTS),
  timestamp: timestamp(),
  data: z.object({ id: nonEmptyString().check(z.maxLength(SECRET_ID_MAX_LENGTH)) }),
});

/** Exactly the payload docs/webhooks.md defines; a receiver gets JSON.stringify of it. */
export const webhookPayloadSchema = z.union([
  secretEventSchema,
  z.object({ event: z.literal(WEBHOOK_TEST_EVENT), timestamp: timestamp(), data: z.object({}) }),
]);

export const webhookJobSchema = z.object({
  eventId: nonEmptyString(),
  owner: nonEmptyString(),
  event: webhookPayloadSchema,
});

export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
export type WebhookJob = z.infer<typeof webhookJobSchema>;

/** The job in a queue message body, or undefined if the body is not one. */
export function parseWebhookJob(body: string): WebhookJob | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = webhookJobSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
