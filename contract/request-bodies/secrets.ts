// zod/mini: the same validation core as zod's chained API, without the methods that pull all of
// zod into every bundle that validates (~70 KB less minified code to load at cold start).
import * as z from 'zod/mini';
import { ERRORS } from '../errors';
import { GATE, SECRET_DEFAULTS, SECRET_TTL_NAMES, VIEWS_RANGE } from '../limits';
import { contentFields, fileFieldsOnlyForFiles } from './content';

/**
 * One module per resource: a zod schema is built when its module loads, so a route bundles and
 * builds only the bodies it validates (docs/decisions/cold-start-module-evaluation.md).
 */

/** POST /secrets. */
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
