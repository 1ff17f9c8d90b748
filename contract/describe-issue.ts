import type { core } from 'zod/mini';
import { ERRORS } from './errors';

/**
 * The one message a client gets for an invalid body: the first problem, naming its field. Only
 * zod's types are imported, so routes without a body carry no zod code.
 */
export function describeIssue(error: core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return ERRORS.notAnObject;
  if (issue.code === 'unrecognized_keys') return ERRORS.unknownField(issue.keys[0] ?? '');
  return issue.message;
}
