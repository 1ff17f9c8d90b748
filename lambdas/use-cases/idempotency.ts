import { hashApiKey } from '../rules/api-keys';
import {
  bodyDigest,
  claimTokenOf,
  idempotencyScope,
  replayableSecretId,
  standingOf,
  type IdempotencyRecord,
  type Standing,
} from '../rules/idempotency';
import { releaseIdempotencyRecord, replaceIdempotencyRecord, type IdempotencyScope, type ScopeRecord } from '../store/key-store';

/** What a request with an Idempotency-Key says about itself, before it is counted. */
export interface IdempotencyInput {
  /** The route's template: the same key on another route is another scope. */
  route: string;
  /** The secret's id (claims and revocations); '' for a create. */
  id: string;
  key: string;
  /** The raw body (POST /secrets): a repeat must send the same. */
  body?: string;
}

/** An authenticated request with an Idempotency-Key, and where it stands (rules/idempotency). */
export interface IdempotentRequest {
  scope: string;
  /** The hash of the API key whose item holds the record. */
  keyHash: string;
  /** This request's write token: the first request's own record carries it. */
  token: string;
  standing: Exclude<Standing, { kind: 'lapsed' }>;
  /** The first's answer where the table cannot tell it (a revocation that found nothing). */
  status?: number;
  /** With status 403 (a wrong passphrase proof): the attempts the first's answer said were left. */
  attemptsLeft?: number;
  /** When the scope's first request began (ms): what a repeat answering with times answers. */
  startedAt: number;
  /** The names the first request's work goes by, and its repeats look for. */
  claimToken: string;
  secretId: string;
}

export const scopeOf = (input: IdempotencyInput): IdempotencyScope => ({
  name: idempotencyScope(input.route, input.id, input.key),
  ...(input.body !== undefined ? { body: bodyDigest(input.body) } : {}),
});

/**
 * Where the counted request stands, from the record the count found under its scope. A lapsed
 * record is replaced by this request's: it is a first request again, under new names.
 */
export async function idempotentRequestOf(apiKey: string, scope: IdempotencyScope, found: ScopeRecord, now: number): Promise<IdempotentRequest> {
  const { token } = found;
  let record: IdempotencyRecord = found.record ?? { at: now, by: token };
  let standing = standingOf(record, token, now, scope.body);
  if (standing.kind === 'lapsed') {
    const fresh: IdempotencyRecord = { at: now, by: token, ...(scope.body !== undefined ? { body: scope.body } : {}) };
    if (!(await replaceIdempotencyRecord(hashApiKey(apiKey), scope.name, record.by, fresh))) {
      throw new Error('a lapsed idempotency record was replaced by a concurrent request');
    }
    record = fresh;
    standing = { kind: 'first' };
  }
  return {
    scope: scope.name,
    keyHash: hashApiKey(apiKey),
    token,
    standing,
    ...(record.status !== undefined ? { status: record.status } : {}),
    ...(record.attemptsLeft !== undefined ? { attemptsLeft: record.attemptsLeft } : {}),
    startedAt: record.at,
    claimToken: claimTokenOf(scope.name, record.at),
    secretId: replayableSecretId(apiKey, scope.name, record.at),
  };
}

/** After an answer that did no work (5xx, 429): a repeat is to do it, as a first request. */
export async function releaseIdempotentRequest(keyHash: string, request: IdempotentRequest): Promise<void> {
  if (request.standing.kind === 'first') await releaseIdempotencyRecord(keyHash, request.scope, request.token);
}

/** Whether the request may do its work now: a first, or a repeat whose first is surely over. */
export const mayDoTheWork = (request: IdempotentRequest): boolean =>
  request.standing.kind === 'first' || (request.standing.kind === 'repeat' && !request.standing.mayBeInFlight);
