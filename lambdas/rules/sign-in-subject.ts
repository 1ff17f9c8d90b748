import { sha256Hex } from './api-keys';

/**
 * What a full key records of the person who signed in: a SHA-256 of the token's issuer and
 * subject, never the subject itself. An operator who knows a person's subject (from the issuer's
 * own console) can find and revoke that person's keys by it; a copy of the table names no one.
 * The issuer is part of it because a subject is unique only within its issuer.
 */
export const signInSubjectHash = (issuer: string, subject: string): string => sha256Hex(`${issuer}\n${subject}`);
