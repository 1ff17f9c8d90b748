import { sha256Hex } from './api-keys';

/** What a full key records of who signed in: SHA-256 of issuer and subject, so that a table copy names no one. */
export const signInSubjectHash = (issuer: string, subject: string): string => sha256Hex(`${issuer}\n${subject}`);
