import { bodyDigest, claimTokenOf, idempotencyScope, replayableSecretId, standingOf, type Standing } from '../rules/idempotency';
import { noteAnswer, recordRequest, releaseRecord } from '../store/idempotency-store';
import { newWriteToken } from '../store/write-token';

/** What a request with an Idempotency-Key says about itself. */
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
  /** The hash of the API key the record is kept under. */
  keyHash: string;
  /** This request's write token: the first request's own record carries it. */
  token: string;
  standing: Standing;
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

/**
 * Records an authenticated request under its scope, in a write of its own after the key's count
 * (docs/decisions/idempotency.md), and answers where it stands: the first, or a repeat of the
 * record that stood (a lapsed record is replaced by the same write, so it is a first again).
 */
export async function idempotentRequestOf(apiKey: string, keyHash: string, input: IdempotencyInput, now: number): Promise<IdempotentRequest> {
  const scope = idempotencyScope(input.route, input.id, input.key);
  const body = input.body === undefined ? undefined : bodyDigest(input.body);
  const token = newWriteToken();
  const record = await recordRequest(keyHash, scope, { at: now, by: token, ...(body !== undefined ? { body } : {}) });
  return {
    scope,
    keyHash,
    token,
    standing: standingOf(record, token, now, body),
    ...(record.status !== undefined ? { status: record.status } : {}),
    ...(record.attemptsLeft !== undefined ? { attemptsLeft: record.attemptsLeft } : {}),
    startedAt: record.at,
    claimToken: claimTokenOf(scope, record.at),
    secretId: replayableSecretId(apiKey, scope, record.at),
  };
}

/** After an answer that did no work (5xx, 429): a repeat is to do it, as a first request. */
export async function releaseIdempotentRequest(request: IdempotentRequest): Promise<void> {
  if (request.standing.kind === 'first') await releaseRecord(request.keyHash, request.scope, request.token);
}

/** Notes the first's answer on its record where its repeat could not read it from the table. */
export async function noteFirstAnswer(request: IdempotentRequest, status: number, attemptsLeft?: number): Promise<void> {
  if (request.standing.kind === 'first') await noteAnswer(request.keyHash, request.scope, request.token, status, attemptsLeft);
}

/** Whether the request may do its work now: a first, or a repeat whose first is surely over. */
export const mayDoTheWork = (request: IdempotentRequest): boolean =>
  request.standing.kind === 'first' || (request.standing.kind === 'repeat' && !request.standing.mayBeInFlight);

/** A repeat is answered from its first's work: it costs no byte quota (the key's count took its bytes, which go back). */
export const isRepeat = (request: IdempotentRequest | undefined): boolean => request?.standing.kind === 'repeat';
