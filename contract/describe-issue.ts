import type { core } from 'zod/mini';
import { ERRORS } from './errors';

/** The first problem of an invalid body, naming its field; only zod's types are imported, so no zod code is bundled. */
export function describeIssue(error: core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return ERRORS.notAnObject;
  if (issue.code === 'unrecognized_keys') return ERRORS.unknownField(issue.keys[0] ?? '');
  return issue.message;
}
