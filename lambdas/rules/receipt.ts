import { RECEIPT_LIFETIME_MS, type ReceiptState } from '#contract/limits';
import type { RequestState } from '#contract/requests';

/** What a head item holds that its receipt is made of. */
export interface ReceiptFacts {
  views: number;
  remaining: number;
  created: number;
  expires: number;
  viewed?: number[];
  /** Set by the wrong proof that took the last passphrase attempt. */
  burnedAt?: number;
}

/** What a secret's creator learns of it: the body of GET /secrets/{id}/status (contract, "Receipts"). */
export interface Receipt extends Omit<ReceiptFacts, 'viewed' | 'burnedAt'> {
  state: ReceiptState;
  /** When each view was taken (ms), oldest first. */
  viewed: number[];
}

/** The state of a secret whose head is still stored (TTL may lag by days). */
export function stateOfHead(head: ReceiptFacts, now: number): ReceiptState {
  if (head.burnedAt !== undefined) return 'burned';
  if (head.remaining <= 0) return 'used';
  return head.expires <= now ? 'expired' : 'active';
}

/** The final state of a secret whose head was deleted with views left: expired or revoked. */
export function stateOfRemovedHead(head: ReceiptFacts, deletedByTtl: boolean): ReceiptState {
  if (head.burnedAt !== undefined) return 'burned';
  if (head.remaining <= 0) return 'used';
  return deletedByTtl ? 'expired' : 'revoked';
}

/** A receipt answers until RECEIPT_LIFETIME_MS after its secret's expiry, whatever the TTL has done yet. */
export const receiptAnswersAt = (expires: number, now: number): boolean => now < expires + RECEIPT_LIFETIME_MS;

export const receiptOf = (facts: ReceiptFacts, state: ReceiptState): Receipt => ({
  state,
  views: facts.views,
  remaining: facts.remaining,
  created: facts.created,
  expires: facts.expires,
  viewed: facts.viewed ?? [],
});

/** The `requestState` of a secret request's head not answered yet: no secret, so no receipt. */
export const OPEN_REQUEST: RequestState = 'open';
