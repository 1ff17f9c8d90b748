// A namespace import lets esbuild drop the parts of zod these schemas do not use (~350 KB).
import * as z from 'zod';
import { ERRORS } from '../definitions/errors';
import {
  FILENAME_MAX_LENGTH,
  MIMETYPE_MAX_LENGTH,
  SECRET_DEFAULTS,
  SECRET_TTLS,
  SECRET_TYPES,
  VIEWS_RANGE,
  type SecretTtl,
} from '../definitions/limits';
import { isStandardBase64 } from '../core/base64';

/** Request bodies. Strict objects: an unknown field (a typo such as `view`) is a 400, never ignored. */

const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
const TTL_NAMES = Object.keys(SECRET_TTLS) as [SecretTtl, ...SecretTtl[]];

export const createSecretBody = z
  .strictObject({
    data: z.string({ error: ERRORS.data }).refine(isStandardBase64, { error: ERRORS.data }),
    ttl: z.enum(TTL_NAMES, { error: ERRORS.ttl }).default(SECRET_DEFAULTS.ttl),
    type: z.enum(SECRET_TYPES, { error: ERRORS.type }).default(SECRET_DEFAULTS.type),
    filename: z
      .string({ error: ERRORS.filename })
      .min(1, { error: ERRORS.filename })
      .max(FILENAME_MAX_LENGTH, { error: ERRORS.filename })
      .optional(),
    mimetype: z
      .string({ error: ERRORS.mimetype })
      .max(MIMETYPE_MAX_LENGTH, { error: ERRORS.mimetype })
      .regex(MIME_TYPE, { error: ERRORS.mimetype })
      .optional(),
    views: z
      .number({ error: ERRORS.views })
      .int({ error: ERRORS.views })
      .min(VIEWS_RANGE.min, { error: ERRORS.views })
      .max(VIEWS_RANGE.max, { error: ERRORS.views })
      .default(SECRET_DEFAULTS.views),
  })
  .superRefine((body, context) => {
    if (body.type === 'file') return;
    for (const field of ['filename', 'mimetype'] as const) {
      if (body[field] !== undefined) {
        context.addIssue({ code: 'custom', path: [field], message: ERRORS.fileFieldsNeedFileType(field) });
      }
    }
  });

export const createKeyBody = z.strictObject({
  webhook: z.string({ error: ERRORS.webhook }).optional(),
});

export const updateKeyBody = z.strictObject({
  webhook: z.string({ error: ERRORS.webhookRequired }),
});
