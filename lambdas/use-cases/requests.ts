import { SECRET_ID_BYTES, SECRET_ID_PATTERN, SECRET_TTLS, type SecretTtl } from '#contract/limits';
import { REQUEST_PAGE_PREFIX, type RequestState } from '#contract/requests';
import { randomUrlSafeId } from '../rules/random';
import {
  NOT_FULFILLED_YET,
  fulfilRequest,
  putRequest,
  readRequest,
  type Answer,
  type FulfilOutcome,
  type StoredRequest,
} from '../store/request-store';
import { hasReceipt } from '../store/receipt-store';
import { mayDoTheWork, noteFirstAnswer, type IdempotentRequest } from './idempotency';
import { STILL_IN_FLIGHT } from './secrets';

/**
 * Secret requests: the requester's key registers a public key (and a note) and later reads the
 * answer as a secret of its own; any key holding the request's id may fulfil it, once.
 */

export interface NewRequestInput {
  publicKey: string;
  note?: string;
  ttl: SecretTtl;
}

/**
 * With an Idempotency-Key the id, the creation time and so the expiry are the scope's first
 * request's (rules/idempotency): every repeat writes, and answers, the very same request, unless
 * the request was answered and that answer is gone since (its receipt is there).
 */
export async function createRequest(
  input: NewRequestInput,
  owner: string,
  siteUrl: string,
  now: number,
  idempotent?: IdempotentRequest,
): Promise<{ id: string; url: string; expires: number }> {
  const id = idempotent ? idempotent.secretId : randomUrlSafeId(SECRET_ID_BYTES);
  const created = idempotent ? idempotent.startedAt : now;
  const lifetime = SECRET_TTLS[input.ttl];
  const expires = created + lifetime;
  const request = { id, owner, publicKey: input.publicKey, ...(input.note !== undefined ? { note: input.note } : {}), created, expires, lifetime };
  const answer = { id, url: `${siteUrl}${REQUEST_PAGE_PREFIX}${id}`, expires };
  // An answered request whose answer was read or revoked since has left only its receipt: not written again.
  if (idempotent && idempotent.standing.kind !== 'first' && (await hasReceipt(id))) return answer;
  await putRequest(request, idempotent?.claimToken);
  return answer;
}

export type SenderView = { outcome: 'open'; publicKey: string; note?: string; expires: number } | { outcome: 'fulfilled' } | { outcome: 'not-found' };

/** What the sender may see: the public key and note of an open request; that it was fulfilled; or nothing. */
export async function requestForSender(id: string, now: number): Promise<SenderView> {
  const request = SECRET_ID_PATTERN.test(id) ? await readRequest(id) : undefined;
  if (!request) return { outcome: 'not-found' };
  if (request.requestState === 'fulfilled') return { outcome: 'fulfilled' };
  if (request.expires <= now) return { outcome: 'not-found' };
  return { outcome: 'open', publicKey: request.publicKey, ...(request.note !== undefined ? { note: request.note } : {}), expires: request.expires };
}

/**
 * With an Idempotency-Key a repeat answers as its first did: 201 when the first's fulfilment is
 * there, else what the request's state says; a repeat whose first may still be at work and finds
 * the request open writes nothing (STILL_IN_FLIGHT). Once the answer is read (or revoked) its
 * head is deleted, and the table can no longer tell whose it was: a first that did not fulfil
 * notes its 404 or 409 on its record, and a repeat that finds no head but the answer's receipt
 * answers the first's 201.
 */
export async function fulfil(
  id: string,
  answer: Answer,
  now: number,
  idempotent?: IdempotentRequest,
): Promise<Exclude<FulfilOutcome, typeof NOT_FULFILLED_YET> | typeof STILL_IN_FLIGHT> {
  if (!SECRET_ID_PATTERN.test(id)) return 'not-found';
  const first = idempotent?.standing.kind === 'first';
  if (idempotent && !first && idempotent.status !== undefined) return idempotent.status === 409 ? 'already-fulfilled' : 'not-found';
  const keyed = idempotent && {
    token: idempotent.claimToken,
    as: first ? ('first' as const) : mayDoTheWork(idempotent) ? ('repeat' as const) : ('probe' as const),
  };
  const outcome = await fulfilRequest(id, answer, now, keyed);
  if (outcome === NOT_FULFILLED_YET) return STILL_IN_FLIGHT;
  if (!idempotent) return outcome;
  if (outcome !== 'fulfilled') await noteFirstAnswer(idempotent, outcome === 'already-fulfilled' ? 409 : 404);
  if (!first && outcome === 'not-found' && (await hasReceipt(id))) return 'fulfilled';
  return outcome;
}

export interface RequestStatus {
  state: RequestState;
  publicKey: string;
  note?: string;
  expires: number;
  fulfilledAt?: number;
}

/**
 * The state of the caller's own request; undefined for any other id (another key's request, a
 * plain secret, unknown), and for an answer already read, which is deleted like any used-up secret.
 */
export async function requestStatus(id: string, owner: string, now: number): Promise<RequestStatus | undefined> {
  const request = SECRET_ID_PATTERN.test(id) ? await readRequest(id) : undefined;
  if (!request || request.owner !== owner) return undefined;
  const fulfilled = request.requestState === 'fulfilled';
  if (fulfilled && request.remaining === 0) return undefined;
  return {
    state: request.expires <= now ? 'expired' : fulfilled ? 'fulfilled' : 'open',
    ...publicPart(request),
    expires: request.expires,
    ...(request.fulfilledAt !== undefined ? { fulfilledAt: request.fulfilledAt } : {}),
  };
}

const publicPart = (request: StoredRequest): { publicKey: string; note?: string } => ({
  publicKey: request.publicKey,
  ...(request.note !== undefined ? { note: request.note } : {}),
});
