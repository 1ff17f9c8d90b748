import * as z from 'zod/mini';
import { ERROR_MESSAGE_MAX_LENGTH } from './errors';
import {
  API_KEY_HINT_PATTERN,
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  FILENAME_MAX_LENGTH,
  MAX_BODY_BYTES,
  MIMETYPE_MAX_LENGTH,
  RECEIPT_STATES,
  SECRET_ID_MAX_LENGTH,
  SECRET_URL_MAX_LENGTH,
  SECRET_TYPES,
  VIEWS_RANGE,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SECRET_RANDOM_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
} from './limits';
import { REQUEST_NOTE_MAX_LENGTH, REQUEST_PUBLIC_KEY_LENGTH, REQUEST_PUBLIC_KEY_PATTERN, REQUEST_STATES, REQUEST_URL_MAX_LENGTH } from './requests';
import { isStandardBase64 } from './base64';
import { MIME_TYPE, NO_CONTROL_CHARACTERS } from './request-bodies/content';
import type { fulfilRequestBody } from './request-bodies/fulfil-request';
import type { createSecretBody } from './request-bodies/secrets';

/** Every schema of the API, for the client, the OpenAPI document and tests; routes import only types from here. */
export { createKeyBody, updateKeyBody } from './request-bodies/keys';
export { createRequestBody } from './request-bodies/create-request';
export { fulfilRequestBody } from './request-bodies/fulfil-request';
export { createSecretBody } from './request-bodies/secrets';

/** Response bodies: plain (not strict) objects, so that a client ignores a newer service's extra fields. */

const timestampMs = () => z.int().check(z.nonnegative());
const webhookSecret = () =>
  z
    .string()
    .check(
      z.regex(new RegExp(`^${WEBHOOK_SECRET_PREFIX}.{${WEBHOOK_SECRET_RANDOM_LENGTH},}$`)),
      z.maxLength(WEBHOOK_SECRET_PREFIX.length + WEBHOOK_SECRET_RANDOM_LENGTH),
    );

export const errorResponse = z.object({ error: z.string().check(z.maxLength(ERROR_MESSAGE_MAX_LENGTH)) });

export const healthResponse = z.object({
  status: z.enum(['healthy', 'unhealthy']),
  /** Kept under this name for client compatibility: it reports DynamoDB (contract). */
  redis: z.enum(['connected', 'disconnected']),
  latency: z.int().check(z.nonnegative()),
  timestamp: timestampMs(),
});

export const createKeyResponse = z.object({
  key: z.string().check(z.regex(API_KEY_PATTERN), z.maxLength(API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH)),
  expires: timestampMs(),
  webhookSecret: webhookSecret(),
});

export const getKeyResponse = z.object({
  hint: z.string().check(z.regex(API_KEY_HINT_PATTERN), z.maxLength(API_KEY_PREFIX.length + 8)),
  webhook: z.optional(z.url().check(z.maxLength(WEBHOOK_URL_MAX_LENGTH))),
  created: timestampMs(),
  expires: timestampMs(),
  webhookSecret: webhookSecret(),
});

export const updateKeyResponse = z.object({ updated: z.literal(true) });

/** DELETE /keys and DELETE /secrets/{id}. */
export const deleteResponse = z.object({ deleted: z.literal(true) });
/** The event id of POST /keys/webhook/test's event: as webhooks/events.ts makes them. */
export const webhookTestResponse = z.object({ eventId: z.string().check(z.regex(/^evt_[0-9a-f]{32}$/), z.maxLength(36)) });

/** The contract promises at least 128 bits in URL-safe characters, not this service's 22. */
export const secretId = z.string().check(z.regex(/^[A-Za-z0-9_-]{22,}$/), z.maxLength(SECRET_ID_MAX_LENGTH));

export const createSecretResponse = z.object({ id: secretId, url: z.url().check(z.maxLength(SECRET_URL_MAX_LENGTH)) });

export const claimSecretResponse = z.object({
  data: z.string().check(z.maxLength(MAX_BODY_BYTES), z.refine(isStandardBase64)),
  type: z.enum(SECRET_TYPES),
  filename: z.nullable(z.string().check(z.maxLength(FILENAME_MAX_LENGTH), z.regex(NO_CONTROL_CHARACTERS))),
  mimetype: z.nullable(z.string().check(z.maxLength(MIMETYPE_MAX_LENGTH), z.regex(MIME_TYPE))),
  remaining: z.int().check(z.gte(0), z.lt(VIEWS_RANGE.max)),
});

/** GET /secrets/{id}/status: the secret's receipt (contract, "Receipts"). */
export const secretStatusResponse = z.object({
  state: z.enum(RECEIPT_STATES),
  views: z.int().check(z.gte(VIEWS_RANGE.min), z.lte(VIEWS_RANGE.max)),
  remaining: z.int().check(z.gte(0), z.lte(VIEWS_RANGE.max)),
  created: timestampMs(),
  expires: timestampMs(),
  viewed: z.array(timestampMs()).check(z.maxLength(VIEWS_RANGE.max)),
});

/** A request's public key and note as the routes answer them: what POST /requests took. */
const publicKey = () => z.string().check(z.length(REQUEST_PUBLIC_KEY_LENGTH), z.regex(REQUEST_PUBLIC_KEY_PATTERN));
const note = () => z.nullable(z.string().check(z.maxLength(REQUEST_NOTE_MAX_LENGTH)));

export const createRequestResponse = z.object({
  id: secretId,
  /** `{site_url}/r/<id>`: the page the sender opens (the client adds `#<fingerprint>`). */
  url: z.url().check(z.maxLength(REQUEST_URL_MAX_LENGTH)),
  expires: timestampMs(),
});

export const requestDetailsResponse = z.object({
  publicKey: publicKey(),
  /** Public to whoever holds the request link. */
  note: note(),
  expires: timestampMs(),
});

export const fulfilRequestResponse = z.object({ fulfilled: z.literal(true) });

export const requestStatusResponse = z.object({
  state: z.enum(REQUEST_STATES),
  publicKey: publicKey(),
  note: note(),
  /** Until when the request may be fulfilled, or, once fulfilled, its answer read. */
  expires: timestampMs(),
  fulfilledAt: z.nullable(timestampMs()),
  /** The answer's secret id (GET /secrets/{id}, by this key only) once fulfilled; null before. */
  secret: z.nullable(secretId),
});

export type FulfilRequestBody = z.input<typeof fulfilRequestBody>;
export type CreateRequestResponse = z.output<typeof createRequestResponse>;
export type RequestDetailsResponse = z.output<typeof requestDetailsResponse>;
export type RequestStatusResponse = z.output<typeof requestStatusResponse>;
export type CreateSecretRequest = z.input<typeof createSecretBody>;
export type CreateKeyResponse = z.output<typeof createKeyResponse>;
export type GetKeyResponse = z.output<typeof getKeyResponse>;
export type HealthResponse = z.output<typeof healthResponse>;
export type CreateSecretResponse = z.output<typeof createSecretResponse>;
export type ClaimSecretResponse = z.output<typeof claimSecretResponse>;
export type UpdateKeyResponse = z.output<typeof updateKeyResponse>;
export type DeleteResponse = z.output<typeof deleteResponse>;
export type WebhookTestResponse = z.output<typeof webhookTestResponse>;
export type SecretStatusResponse = z.output<typeof secretStatusResponse>;
