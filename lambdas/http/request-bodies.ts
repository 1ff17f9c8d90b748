// zod/mini: the same validation core as zod's chained API, without the methods that pull all of
// zod into every bundle that validates (~70 KB less minified code to load at cold start).
import * as z from 'zod/mini';
import { ERRORS } from '../definitions/errors';
import {
  FILENAME_MAX_LENGTH,
  GATE,
  MAX_BODY_BYTES,
  MIMETYPE_MAX_LENGTH,
  SECRET_DEFAULTS,
  SECRET_TTLS,
  SECRET_TYPES,
  VIEWS_RANGE,
  WEBHOOK_URL_MAX_LENGTH,
  type SecretTtl,
} from '../definitions/limits';
import { REQUEST_NOTE_MAX_LENGTH, REQUEST_PUBLIC_KEY_LENGTH } from '../definitions/requests';
import { isStandardBase64 } from '../rules/base64';
import { isP256PublicKey } from '../rules/p256';

/**
 * The request bodies the routes validate, apart from the response schemas (schemas.ts): a zod
 * schema is built when its module loads, so a route that imported every schema of the API would
 * build them all at each cold start (docs/decisions/cold-start-module-evaluation.md).
 */

/** Request bodies. Strict objects: an unknown field (a typo such as `view`) is a 400, never ignored. */

/** C0 controls (NUL, CR, LF...), DEL and C1 controls: a name holding one is an attack on whoever saves it. */
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
export const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
const TTL_NAMES = Object.keys(SECRET_TTLS) as [SecretTtl, ...SecretTtl[]];

/** The fields of a secret's content, shared by POST /secrets and a request's answer. */
const contentFields = {
  // A body holds at most MAX_BODY_BYTES, so data can be no longer: a bound for the document, never the 413's job.
  data: z
    .string({ error: ERRORS.data })
    .check(z.maxLength(MAX_BODY_BYTES, { error: ERRORS.data }), z.refine(isStandardBase64, { error: ERRORS.data })),
  type: z._default(z.enum(SECRET_TYPES, { error: ERRORS.type }), SECRET_DEFAULTS.type),
  filename: z.optional(
    z
      .string({ error: ERRORS.filename })
      .check(
        z.minLength(1, { error: ERRORS.filename }),
        z.maxLength(FILENAME_MAX_LENGTH, { error: ERRORS.filename }),
        z.regex(NO_CONTROL_CHARACTERS, { error: ERRORS.filename }),
      ),
  ),
  mimetype: z.optional(
    z
      .string({ error: ERRORS.mimetype })
      .check(z.maxLength(MIMETYPE_MAX_LENGTH, { error: ERRORS.mimetype }), z.regex(MIME_TYPE, { error: ERRORS.mimetype })),
  ),
};

/** filename and mimetype belong to files only. */
const fileFieldsOnlyForFiles = z.superRefine((body: { type: string; filename?: string; mimetype?: string }, context) => {
  if (body.type === 'file') return;
  for (const field of ['filename', 'mimetype'] as const) {
    if (body[field] !== undefined) {
      context.addIssue({ code: 'custom', path: [field], message: ERRORS.fileFieldsNeedFileType(field) });
    }
  }
});

export const createSecretBody = z
  .strictObject({
    ...contentFields,
    ttl: z._default(z.enum(TTL_NAMES, { error: ERRORS.ttl }), SECRET_DEFAULTS.ttl),
    views: z._default(
      z
        .number({ error: ERRORS.views })
        .check(z.int({ error: ERRORS.views }), z.gte(VIEWS_RANGE.min, { error: ERRORS.views }), z.lte(VIEWS_RANGE.max, { error: ERRORS.views })),
      SECRET_DEFAULTS.views,
    ),
    /** A passphrase gate: the SHA-256 of the proof (docs/api.md). */
    gate: z.optional(
      z
        .string({ error: ERRORS.gate })
        .check(z.maxLength(GATE.digestLength, { error: ERRORS.gate }), z.regex(GATE.digestPattern, { error: ERRORS.gate })),
    ),
  })
  .check(fileFieldsOnlyForFiles);

/** Tab and newline are a note's own; other controls are not. */
const NOTE_CHARACTERS = /^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$/;

/** POST /requests: the requester's public key, a note for the sender, how long both may wait. */
export const createRequestBody = z.strictObject({
  publicKey: z
    .string({ error: ERRORS.publicKey })
    .check(z.maxLength(REQUEST_PUBLIC_KEY_LENGTH, { error: ERRORS.publicKey }), z.refine(isP256PublicKey, { error: ERRORS.publicKey })),
  note: z.optional(
    z
      .string({ error: ERRORS.note })
      .check(z.maxLength(REQUEST_NOTE_MAX_LENGTH, { error: ERRORS.note }), z.regex(NOTE_CHARACTERS, { error: ERRORS.note })),
  ),
  ttl: z._default(z.enum(TTL_NAMES, { error: ERRORS.ttl }), SECRET_DEFAULTS.ttl),
});

/** POST /requests/{id}: the answer, with the content fields and limits of POST /secrets. */
export const fulfilRequestBody = z.strictObject(contentFields).check(fileFieldsOnlyForFiles);

/** checkWebhookUrl (webhooks/rules/webhook-url.ts) says what else a webhook URL must be; the length is told here too, for the document. */
const webhookUrl = (typeError: string) => z.string({ error: typeError }).check(z.maxLength(WEBHOOK_URL_MAX_LENGTH, { error: ERRORS.webhook }));

export const createKeyBody = z.strictObject({
  webhook: z.optional(webhookUrl(ERRORS.webhook)),
});

export const updateKeyBody = z.strictObject({
  webhook: webhookUrl(ERRORS.webhookRequired),
});
