import * as z from 'zod/mini';
import { ERRORS } from '../errors';
import { GATE, SECRET_DEFAULTS, SECRET_TTL_NAMES, VIEWS_RANGE } from '../limits';
import { contentFields, fileFieldsOnlyForFiles } from './content';

export const createSecretBody = z
  .strictObject({
    ...contentFields,
    ttl: z._default(z.enum(SECRET_TTL_NAMES, { error: ERRORS.ttl }), SECRET_DEFAULTS.ttl),
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
