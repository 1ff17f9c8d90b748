import * as z from 'zod/mini';
import { ERRORS } from '../errors';
import { SECRET_DEFAULTS, SECRET_TTL_NAMES } from '../limits';
import { REQUEST_NOTE_MAX_LENGTH, REQUEST_PUBLIC_KEY_LENGTH } from '../requests';
import { isP256PublicKey } from '../p256';

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
  ttl: z._default(z.enum(SECRET_TTL_NAMES, { error: ERRORS.ttl }), SECRET_DEFAULTS.ttl),
});
