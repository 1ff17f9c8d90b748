import * as z from 'zod/mini';
import { ERRORS } from '../errors';
import { FILENAME_MAX_LENGTH, MAX_BODY_BYTES, MIMETYPE_MAX_LENGTH, SECRET_DEFAULTS, SECRET_TYPES } from '../limits';
import { isStandardBase64 } from '../base64';

/**
 * What the request bodies share; each is strict (an unknown field is a 400). One module per resource and zod/mini,
 * so that a route bundles and builds only the schemas it validates (docs/decisions/cold-start-module-evaluation.md).
 */

/** C0 controls (NUL, CR, LF...), DEL and C1 controls: a name holding one is an attack on whoever saves it. */
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
export const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;

/** The fields of a secret's content, shared by POST /secrets and a request's answer. */
export const contentFields = {
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
export const fileFieldsOnlyForFiles = z.superRefine((body: { type: string; filename?: string; mimetype?: string }, context) => {
  if (body.type === 'file') return;
  for (const field of ['filename', 'mimetype'] as const) {
    if (body[field] !== undefined) {
      context.addIssue({ code: 'custom', path: [field], message: ERRORS.fileFieldsNeedFileType(field) });
    }
  }
});
