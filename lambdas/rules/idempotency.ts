import { createHash, createHmac } from 'node:crypto';
import { IDEMPOTENCY, SECRET_ID_BYTES } from '#contract/limits';

/**
 * Requests that carry an Idempotency-Key (IETF httpapi draft). The first request of a scope
 * (API key, route, id, Idempotency-Key) records itself on its scope's item (store/idempotency-store,
 * docs/decisions/idempotency.md), and does its work under names derived from that record, so that a repeat finds the work instead of doing it again: a claim's view under
 * claimTokenOf, a create's secret under replayableSecretId. Nothing here is stored in clear:
 * the scope is a digest, the body only its digest.
 */

export const isWellFormedIdempotencyKey = (value: string): boolean => IDEMPOTENCY.pattern.test(value);

/** A first request, as its scope's item keeps it for IDEMPOTENCY.recordMs. */
export interface IdempotencyRecord {
  /** When the first request began (ms): the names of its work derive from it. */
  at: number;
  /** The first request's write token: the first knows its own record by it. */
  by: string;
  /** POST /secrets: the digest of the first's body. */
  body?: string;
  /** Set when the first found no secret to revoke: the one answer its repeat cannot read from the table. */
  status?: number;
  /** Set with status 403 when the first claim's passphrase proof was wrong: the attempts it said were left. */
  attemptsLeft?: number;
}

/** Where a request stands among the requests of its scope. */
export type Standing =
  /** It is the first (its own record). */
  | { kind: 'first' }
  /** POST /secrets with another body than the first's. */
  | { kind: 'reused' }
  /** A repeat of the first; until IDEMPOTENCY.inFlightMs the first may still be at work. */
  | { kind: 'repeat'; mayBeInFlight: boolean };

const digest = (...parts: readonly string[]): string => createHash('sha256').update(parts.join('\n'), 'utf8').digest('base64url');

/** The scope's name under its key: 128 bits of a digest of route, id and Idempotency-Key. */
export const idempotencyScope = (route: string, id: string, idempotencyKey: string): string =>
  digest('scope', route, id, idempotencyKey).slice(0, 22);

/** A digest of a request body: a repeat must send the same bytes. */
export const bodyDigest = (body: string): string => digest('body', body);

/** Where a request stands by the record that stood when it recorded itself (a lapsed one is replaced then). */
export function standingOf(record: IdempotencyRecord, token: string, now: number, body: string | undefined): Standing {
  if (record.by === token) return { kind: 'first' };
  if (record.body !== body) return { kind: 'reused' };
  return { kind: 'repeat', mayBeInFlight: now - record.at < IDEMPOTENCY.inFlightMs };
}

/** The claim token of the first claim of a scope, which its repeats look for in the secret's head. */
export const claimTokenOf = (scope: string, at: number): string => digest('claim', scope, String(at)).slice(0, 22);

/**
 * The id of the secret that the first create of a scope makes, which its repeats answer with.
 * Keyed with the API key itself, which the service never stores: nobody but the key's holder can
 * compute a secret's id from what the tables or logs hold.
 */
export const replayableSecretId = (apiKey: string, scope: string, at: number): string =>
  createHmac('sha256', apiKey).update(`secret-id\n${scope}\n${at}`, 'utf8').digest().subarray(0, SECRET_ID_BYTES).toString('base64url');
