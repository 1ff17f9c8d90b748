import { randomBytes } from 'node:crypto';
import { IDEMPOTENCY } from '#contract/limits';

/** Headers carrying an Idempotency-Key no other request has: one operation, and its repeats. */
export const freshIdempotencyHeaders = (): Record<string, string> => ({ [IDEMPOTENCY.header]: randomBytes(16).toString('base64url') });
