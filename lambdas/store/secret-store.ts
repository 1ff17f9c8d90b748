import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isCanonicalBase64 } from '#contract/base64';
import { CLAIM_SETTLING_ATTRIBUTES, HEAD_SETTLING_ATTRIBUTES } from '../definitions/access';
import {
  CLAIMANTS_DONE_MS,
  CLAIM_RETRY_WINDOW_MS,
  DATA_CHUNK_BYTES,
  INLINE_DATA_MAX_BYTES,
  MAX_CHUNKS_PER_SECRET,
  type SecretType,
} from '#contract/limits';
import {
  CLAIM_ATTRIBUTE_PREFIX,
  KEYED_CLAIM_ATTRIBUTE_PREFIX,
  SECRETS_TABLE,
  SECRET_ATTRIBUTES as A,
  SECRET_HEAD_SK,
  secretChunkKey,
} from '../definitions/tables';
import { readSetting } from '../config/environment';
import { batchGetAll, batchWriteAll } from './batches';
import { NEVER, holds, renderCondition, writtenBy, type Condition } from './condition';
import { countWrongProof, liveAt } from './gate-attempts';
import { putReceipt } from './receipt-store';
import { receiptOf } from '../rules/receipt';
import {
  DONE_EITHER_WAY,
  WHETHER_IT_HELD,
  dynamo,
  epochSeconds,
  isConditionFailure,
  isRetriedConditionFailure,
  itemOfConditionFailure,
  sendConditional,
  tableName,
} from './dynamo';
import { NOT_APPLIED, StoreUnavailable, isStoreFault, readForSettling, repeatIt, settledWrite } from './settled-write';
import { remainingBudgetMs } from './time-budget';
import { newWriteToken } from './write-token';

/** Wrong proofs a new gated secret allows, the last of them deleting it: the deployment's setting. */
const PASSPHRASE_ATTEMPTS = readSetting('passphraseAttempts');

/**
 * Storage of secrets within DynamoDB's 400 KB item limit:
 * - the head item (pk = id, sk "head") holds metadata, the view counter and, for data up to
 *   INLINE_DATA_MAX_BYTES, the data itself, so small secrets cost one write and one read;
 * - larger data is split into chunk items of DATA_CHUNK_BYTES, each under a partition key of its own
 *   (secretChunkKey), written BEFORE the head. The head is the commit point: a secret exists
 *   only once its head does, and every chunk carries the secret's TTL, so a failed create leaves
 *   nothing readable and nothing that outlives the ttl;
 * - data is stored as binary where its base64 allows (storedData): a quarter fewer bytes and
 *   capacity units than as text;
 * - every conditional write is safe for the SDK to repeat (docs/retried-writes.md): a create
 *   carries a token that lets its own repeat through, a claim records its token (see
 *   claimAttribute) so that its repeat finds the view it took instead of taking another.
 */

export interface NewSecret {
  id: string;
  owner: string;
  data: string;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  views: number;
  created: number;
  expires: number;
  /** The SHA-256 of the passphrase proof, for a gated secret. */
  gate?: string;
}

export interface ClaimedSecret {
  data: string;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  remaining: number;
}

/** A claim of a gated secret that used no view: no proof, or a wrong one (counted). */
export interface GateRefusal {
  refusal: 'proof-required' | 'wrong-proof';
  attemptsLeft: number;
}

/** The proof a claim sent: `gate` is its digest, undefined when the header held no proof at all. */
export interface SentProof {
  gate: string | undefined;
}

export const isGateRefusal = (result: ClaimedSecret | GateRefusal): result is GateRefusal => 'refusal' in result;

export interface HeadItem {
  pk: string;
  sk: string;
  owner: string;
  type: SecretType;
  filename?: string;
  mimetype?: string;
  views: number;
  remaining: number;
  created: number;
  expires: number;
  ttl: number;
  /** Inline data (small secrets), as stored (see storedData) ... */
  data?: StoredData;
  /** ... or the number of chunk items holding it (large secrets). */
  chunks?: number;
  /** Claims that have taken a view and may still be reading chunks. */
  readers?: number;
  /** When the latest view was taken (ms). */
  viewedAt?: number;
  /** When each view was taken (ms), oldest first. */
  viewed?: number[];
  /** Written by the create, so that its repeat can tell its own head from another's. */
  createToken?: string;
  /** An answer to a request: the only key that may claim it. */
  reader?: string;
  /** An answer to a request: the id its chunks are stored under. */
  chunkId?: string;
  /** Not stored: set on a head read back for a keyed claim whose reader has signed off already. */
  chunksReadBy?: string;
  /** A gated secret's SHA-256 of the proof, the wrong proofs it still accepts, and when the last one burned it. */
  gate?: string;
  attempts?: number;
  burnedAt?: number;
  /** Set by a failed create on its own head just before deleting it: its removal leaves no receipt. */
  undoneAt?: number;
  /** Set by a keyed create's repeat that answered with this head: its first may no longer undo it. */
  repeatAnsweredAt?: number;
}

/**
 * Each claim records `claim:<its token>` = the views it left: a repeat of the claim's update
 * fails on it (the condition wants it absent) and reads it back, which turns that failure into
 * the claim it was, with the data and the `remaining` it took. A chunked claim removes it again
 * when it signs off as reader; inline secrets keep theirs (at most VIEWS_RANGE.max) until deleted.
 */
const claimAttribute = (token: string): string => `${CLAIM_ATTRIBUTE_PREFIX}${token}`;

/**
 * The claim of a request with an Idempotency-Key (rules/idempotency's claimTokenOf): the client's
 * repeat, a request of its own, looks for it too, so it stays until the secret is deleted; a
 * chunked claim signs off as reader by adding `<claim>:read` instead of removing it.
 */
export const keyedClaimAttribute = (token: string): string => `${KEYED_CLAIM_ATTRIBUTE_PREFIX}${token}`;
const isKeyedClaim = (claim: string): boolean => claim.startsWith(KEYED_CLAIM_ATTRIBUTE_PREFIX);
const readMarkOf = (claim: string): string => `${claim}:read`;

/** A claim's outcome when it may not take a view (a repeat that may have overtaken its first): */
export const NOT_CLAIMED_YET = 'not claimed yet';

interface ChunkItem {
  pk: string;
  sk: string;
  data: StoredData;
  ttl: number;
}

/** Binary (the document client reads it back as a Uint8Array) or, where that would not round-trip, text. */
type StoredData = string | Uint8Array;

/**
 * Data (standard base64, as the API accepts it, or a DATA_CHUNK_BYTES slice of it) as it is
 * stored: as binary, which DynamoDB stores and bills at 3/4 of the base64's length, unless its
 * bytes would not give the same base64 back (see isCanonicalBase64).
 */
export const storedData = (data: string): StoredData => (data.length % 4 === 0 && isCanonicalBase64(data) ? Buffer.from(data, 'base64') : data);

/** The base64 text that storedData stored. */
const base64Of = (data: StoredData): string =>
  typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');

const chunkKeys = (id: string, count: number) => Array.from({ length: count }, (_, index) => secretChunkKey(id, index));

/** The data of chunk items, DATA_CHUNK_BYTES characters each, in order. */
export function splitIntoChunks(data: string): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < data.length; i += DATA_CHUNK_BYTES) chunks.push(data.slice(i, i + DATA_CHUNK_BYTES));
  return chunks;
}

/** Chunk items of `chunks`, in order, under `id`, each expiring at `ttl` (epoch seconds). */
export const writeChunks = (id: string, chunks: readonly string[], ttl: number): Promise<void> =>
  settledWrite({
    write: (abortSignal) =>
      batchWriteAll(
        tableName(SECRETS_TABLE),
        chunks.map((data, index) => ({ PutRequest: { Item: { ...secretChunkKey(id, index), data: storedData(data), ttl } satisfies ChunkItem } })),
        abortSignal,
      ),
    // Putting the same items again gives the same items.
    settle: repeatIt,
  });

const readHeadForSettling = (id: string, signal: AbortSignal | undefined): Promise<Pick<HeadItem, 'createToken'> | undefined> =>
  readForSettling(tableName(SECRETS_TABLE), { pk: id, sk: SECRET_HEAD_SK }, HEAD_SETTLING_ATTRIBUTES, signal);

/** The head under the id is the one the create with this token put. */
const putBy = (createToken: string): Condition => writtenBy(A.createToken, createToken);

/** No head under the id, or the create's own still as `rewritable` wants it: its put (or undo) may be repeated. */
const ownHeadOr = (createToken: string, rewritable: Condition): Condition => ({
  any: [{ path: A.pk, op: 'absent' }, { all: [putBy(createToken), rewritable] }],
});

/**
 * Puts a new head (a secret's or a request's), settled by its createToken: a repeat of the put
 * rewrites the same item, since nobody else knows the id before it answers, while the head is
 * still `rewritable`. A put refused by its own head is done (an earlier attempt applied), and so
 * is a `keyed` one's: its id derives from its API key and scope, and an item under it is the first's.
 */
export async function putHead<THead extends { pk: string; createToken: string }>(head: THead, rewritable: Condition, keyed: boolean): Promise<void> {
  const isOwnHead = async (signal: AbortSignal | undefined): Promise<boolean> =>
    holds(putBy(head.createToken), await readHeadForSettling(head.pk, signal));
  await settledWrite<void>({
    write: async (abortSignal) => {
      try {
        await dynamo.send(
          new PutCommand({ TableName: tableName(SECRETS_TABLE), Item: head, ...renderCondition(ownHeadOr(head.createToken, rewritable)) }),
          { abortSignal },
        );
      } catch (error) {
        if (isConditionFailure(error) && (keyed || (await isOwnHead(abortSignal)))) return;
        throw error;
      }
    },
    settle: async (signal) => ((await isOwnHead(signal)) ? undefined : NOT_APPLIED),
  });
}

/** A head as its create writes it, with its token. */
type NewHead = HeadItem & { createToken: string };

export async function putSecret(secret: NewSecret): Promise<void> {
  const ttl = epochSeconds(secret.expires);
  const inline = secret.data.length <= INLINE_DATA_MAX_BYTES;
  const chunks = inline ? [] : splitIntoChunks(secret.data);
  const createToken = newWriteToken();
  if (!inline) await writeChunks(secret.id, chunks, ttl);
  const head: NewHead = {
    pk: secret.id,
    sk: SECRET_HEAD_SK,
    owner: secret.owner,
    type: secret.type,
    ...(secret.filename !== undefined ? { filename: secret.filename } : {}),
    ...(secret.mimetype !== undefined ? { mimetype: secret.mimetype } : {}),
    views: secret.views,
    remaining: secret.views,
    created: secret.created,
    expires: secret.expires,
    ttl,
    ...(inline ? { data: storedData(secret.data) } : { chunks: chunks.length }),
    createToken,
    ...(secret.gate !== undefined ? { gate: secret.gate, attempts: PASSPHRASE_ATTEMPTS } : {}),
  };
  try {
    // Unless a keyed create's repeat has answered with it meanwhile: rewriting would drop the mark
    // that keeps an undo from deleting it.
    await putHead(head, { path: A.repeatAnsweredAt, op: 'absent' }, false);
  } catch (error) {
    await undoCreate(head, chunks.length).catch(() => undefined);
    throw error;
  }
}

/**
 * After a create that answers an error: its head may have been written all the same (an attempt
 * applied, its answer lost). Deletes that head if it is this create's, and only once no head is
 * left under the id, its chunks: a head that stays keeps the chunks it needs.
 *
 * The head is first marked `undoneAt`, so that its removal leaves no receipt (a secret the create
 * never answered with was never made); else a keyed create's repeat would find that receipt and
 * answer 201 for a secret that is gone. A head that cannot be marked is not deleted: it stays a
 * whole secret, which the repeat answers with, and TTL removes it if none comes. Nor is a head a
 * keyed repeat has answered with meanwhile (`repeatAnsweredAt`): its client holds the id.
 */
async function undoCreate(head: NewHead, chunks: number): Promise<void> {
  const { pk: id, createToken } = head;
  await markUndone(head);
  const noHeadLeft = await settledWrite<boolean>({
    write: (abortSignal) =>
      sendConditional(
        new DeleteCommand({
          TableName: tableName(SECRETS_TABLE),
          Key: { pk: id, sk: SECRET_HEAD_SK },
          ...renderCondition(ownHeadOr(createToken, { path: A.repeatAnsweredAt, op: 'absent' })),
        }),
        abortSignal,
        // Refused: a head a repeat answered with, or another create's under the same id (a keyed
        // repeat's), whose chunks are under the same keys as this create's.
        WHETHER_IT_HELD,
      ),
    // This create's head still there is sent the delete again, whose condition decides.
    settle: async (signal) => {
      const left = await readHeadForSettling(id, signal);
      if (left === undefined) return true;
      return holds(putBy(createToken), left) ? NOT_APPLIED : false;
    },
  });
  if (noHeadLeft && chunks > 0) await deleteChunks(id, chunks);
}

/**
 * Puts this create's head again with `undoneAt`, if it is still as the create wrote it: no head
 * (the create wrote none), another create's, one a view was taken from, or one a keyed repeat
 * answered with is left as it is, and its removal keeps the receipt it should.
 */
function markUndone(head: NewHead): Promise<void> {
  const marked: HeadItem = { ...head, undoneAt: Date.now() };
  return settledWrite<void>({
    write: (abortSignal) =>
      sendConditional(
        new PutCommand({
          TableName: tableName(SECRETS_TABLE),
          Item: marked,
          ...renderCondition({
            all: [putBy(head.createToken), { path: A.remaining, op: '=', value: head.views }, { path: A.repeatAnsweredAt, op: 'absent' }],
          }),
        }),
        abortSignal,
        DONE_EITHER_WAY,
      ),
    // Putting the same marked head again under the same condition gives the same item.
    settle: repeatIt,
  });
}

/**
 * Time a claim must still have when it starts: its retry window, and a second for chunked data's
 * read and sign-off (milliseconds when the store answers). With less, it answers StoreUnavailable
 * before it takes a view.
 */
export const CLAIM_MIN_BUDGET_MS = CLAIM_RETRY_WINDOW_MS + 1_000;

/**
 * Consumes one view with a single conditional update: of N concurrent claims on V views exactly
 * min(N, V) succeed, each seeing a distinct `remaining`. Expiry is checked here too: DynamoDB TTL
 * may lag by days. The claim that takes the last view does not delete the secret: from that update
 * on no request can read or revoke it, and the table's stream consumer deletes it (see
 * deleteConsumedSecret), so that the commonest claim of all, a secret's only view, costs one call.
 *
 * A repeat of the update that finds this claim's token (claimAttribute) is the claim it repeats,
 * and so is a settling read that finds it after a lost answer. Update and reads end within
 * CLAIM_RETRY_WINDOW_MS of `now`, the claim's own time (not the request's), which it records as
 * viewedAt: the stream consumer keeps an inline secret whose last view was taken that long, so that
 * a repeat or a settling read still finds its data.
 *
 * A gated secret's proof is checked by the same condition, so that the right proof costs nothing
 * more; when the condition fails on the gate alone, the item it returns tells so, and a wrong
 * proof is counted then (countWrongProof). `proof` undefined: the claim sent none.
 */
export const claimSecret = (id: string, now: number, caller: string, proof?: SentProof): Promise<ClaimedSecret | GateRefusal | undefined> =>
  claimAs(id, now, caller, claimAttribute(newWriteToken()), true, proof) as Promise<ClaimedSecret | GateRefusal | undefined>;

/**
 * The claim of a request with an Idempotency-Key, under its derived claim token: the view its
 * first request took (with the data and `remaining` it answered), else a view taken now. With
 * `takeView` false (a repeat while its first may still be at work) it takes none and counts no
 * wrong proof, and answers NOT_CLAIMED_YET where it would have.
 */
export const claimSecretAs = (
  id: string,
  now: number,
  caller: string,
  token: string,
  takeView: boolean,
  proof?: SentProof,
): Promise<ClaimedSecret | GateRefusal | undefined | typeof NOT_CLAIMED_YET> => claimAs(id, now, caller, keyedClaimAttribute(token), takeView, proof);

async function claimAs(
  id: string,
  now: number,
  caller: string,
  claim: string,
  takeView: boolean,
  proof: SentProof | undefined,
): Promise<ClaimedSecret | GateRefusal | undefined | typeof NOT_CLAIMED_YET> {
  if (remainingBudgetMs() < CLAIM_MIN_BUDGET_MS) throw new StoreUnavailable('too little of the time budget left to take a view');
  const gate = proof?.gate;
  const table = tableName(SECRETS_TABLE);
  const key = { pk: id, sk: SECRET_HEAD_SK };
  const condition = claimable(now, caller, claim, gate, takeView);
  const outcome = await settledWrite<ClaimUpdateOutcome>({
    withinMs: CLAIM_RETRY_WINDOW_MS,
    write: (abortSignal) =>
      sendConditional<HeadItem & Record<string, unknown>, ClaimUpdateOutcome>(
        new UpdateCommand({
          TableName: table,
          Key: key,
          // `readers` matters only for chunked data (see readChunksAsClaimant); adding it is free.
          // viewedAt gives the stream record of this claim the time its webhook event reports;
          // `viewed` keeps every view's time for the secret's receipt (rules/receipt).
          UpdateExpression:
            `SET ${A.remaining} = ${A.remaining} - :one, ${A.viewedAt} = :now, ` +
            `${A.viewed} = list_append(if_not_exists(${A.viewed}, :noViews), :thisView), #claim = ${A.remaining} - :one ADD ${A.readers} :one`,
          ...renderCondition(condition, { '#claim': claim }, { ':one': 1, ':now': now, ':noViews': [], ':thisView': [now] }),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        { applied: (taken) => ({ taken: taken as HeadItem }), refused: (refusedBy) => ({ refusedBy }) },
      ),
    settle: async (signal) => {
      const attributes = [...CLAIM_SETTLING_ATTRIBUTES, claim, ...(isKeyedClaim(claim) ? [readMarkOf(claim)] : [])];
      const item = await readForSettling<HeadItem & Record<string, unknown>>(table, key, attributes, signal);
      // Not applied while the update's condition holds: sent again. Otherwise the item says what
      // it answered (this claim's own view) or would answer (gone, used up, expired, the gate).
      return item !== undefined && holds(condition, item) ? NOT_APPLIED : { refusedBy: item };
    },
  }).catch(viewMayBeTaken);
  let head: HeadItem;
  if ('taken' in outcome) head = outcome.taken;
  else {
    const old = outcome.refusedBy;
    const { forCaller, unlocked } = claimClauses(caller, gate);
    // Another key's answer to a request is no secret to this one.
    if (old !== undefined && !holds(forCaller, old)) return undefined;
    const remaining = old?.[claim];
    if (old !== undefined && typeof remaining !== 'number' && holds({ all: liveAt(now) }, old)) {
      if (!holds(unlocked, old)) {
        if (proof === undefined) return { refusal: 'proof-required', attemptsLeft: old.attempts ?? 0 };
        // A repeat whose first may still be counting this wrong proof does not count it again.
        if (!takeView) return NOT_CLAIMED_YET;
        const attemptsLeft = await countWrongProof(id, now);
        return attemptsLeft === undefined ? undefined : { refusal: 'wrong-proof', attemptsLeft };
      }
      if (!takeView) return NOT_CLAIMED_YET;
    }
    // Not this claim's own repeat: no view left, expired, or gone.
    if (old === undefined || typeof remaining !== 'number') return undefined;
    // Later claims may have taken views since: this claim's own count is the one it answers.
    // A keyed claim whose reader has signed off already is read again without signing off.
    head = { ...old, remaining, ...(isKeyedClaim(claim) && old[readMarkOf(claim)] !== undefined ? { chunksReadBy: claim } : {}) };
  }

  const data =
    head.chunks === undefined
      ? head.data !== undefined
        ? base64Of(head.data)
        : undefined
      : await (
          head.chunksReadBy === claim ? readChunks(head.chunkId ?? id, head.chunks) : readChunksAsClaimant(id, head.chunkId ?? id, head.chunks, claim)
        ).catch(viewMayBeTaken);
  // Chunks can be missing only if the owner revoked the secret while this claim read them.
  if (data === undefined) return undefined;
  return {
    data,
    type: head.type,
    ...(head.filename !== undefined ? { filename: head.filename } : {}),
    ...(head.mimetype !== undefined ? { mimetype: head.mimetype } : {}),
    remaining: head.remaining,
  };
}

/**
 * A claim that may have taken its view (its update's outcome unknown, or its chunks unread after
 * it) answers 503 all the same; marked so, its Idempotency-Key record is kept (http/route.ts), and
 * a repeat finds that view under the first's claim token instead of taking another.
 */
function viewMayBeTaken(error: unknown): never {
  if (!isStoreFault(error)) throw error;
  throw new StoreUnavailable(error instanceof StoreUnavailable ? error.cause : error, { mayHaveWritten: true });
}

/**
 * What a claim's update ended with: the view it took, or the item its condition failed on (that a
 * settling read found instead, after a lost answer), from which the claim's answer is read.
 */
type ClaimUpdateOutcome = { taken: HeadItem } | { refusedBy: (HeadItem & Record<string, unknown>) | undefined };

/** Clauses of what a claim's update wants of the head that a refusal is answered by. */
const claimClauses = (caller: string, gate: string | undefined) => ({
  /** No other key's answer to a request (`reader`). */
  forCaller: {
    any: [
      { path: A.reader, op: 'absent' },
      { path: A.reader, op: '=', value: caller },
    ],
  } satisfies Condition,
  /** No gate, or the right proof. */
  unlocked: {
    any: [{ path: A.gate, op: 'absent' }, ...(gate === undefined ? [] : [{ path: A.gate, op: '=' as const, value: gate }])],
  } satisfies Condition,
});

/**
 * What a claim's update wants of the head: live, not taken by this claim yet, for the caller, and
 * unlocked. Without `takeView` it never holds (the update only reads the head back).
 */
const claimable = (now: number, caller: string, claim: string, gate: string | undefined, takeView: boolean): Condition => {
  const { forCaller, unlocked } = claimClauses(caller, gate);
  return {
    all: [...liveAt(now), { path: claim, op: 'absent' }, forCaller, unlocked, ...(takeView ? [] : [{ path: claim, op: 'exists' as const }])],
  };
};

/**
 * Chunked data is read after the view is taken, so the chunks must outlive the last view until
 * every claimant has read them. Each claim counted itself into `readers` and takes itself out
 * here, removing its claim attribute in the same update: a repeat of this update finds it gone
 * and counts nothing, so `readers` is never taken down twice. The update that leaves no views
 * and no readers is the one that lets the stream consumer delete the secret.
 */
async function readChunksAsClaimant(id: string, chunkId: string, chunks: number, claim: string): Promise<string | undefined> {
  try {
    return await readChunks(chunkId, chunks);
  } finally {
    const key = { pk: id, sk: SECRET_HEAD_SK };
    const keyed = isKeyedClaim(claim);
    const mark = readMarkOf(claim);
    // Not signed off yet: a keyed claim's read mark is not there, a plain claim's attribute still is (and so the head).
    const notSignedOff: Condition = { all: [{ path: claim, op: 'exists' }, ...(keyed ? [{ path: mark, op: 'absent' as const }] : [])] };
    // A sign-off the store never settles must not cost the reader the data it has read: the
    // secret then keeps `readers` above 0, and the stream consumer deletes it once its claims
    // have surely ended (CLAIMANTS_DONE_MS).
    await settledWrite<void>({
      write: (abortSignal) =>
        sendConditional(
          new UpdateCommand({
            TableName: tableName(SECRETS_TABLE),
            Key: key,
            ...(keyed
              ? {
                  UpdateExpression: `ADD ${A.readers} :minusOne SET #read = :read`,
                  ...renderCondition(notSignedOff, { '#read': mark }, { ':minusOne': -1, ':read': true }),
                }
              : {
                  UpdateExpression: `ADD ${A.readers} :minusOne REMOVE #claim`,
                  // Also keeps ADD from recreating a head that a revocation has just deleted.
                  ...renderCondition(notSignedOff, { '#claim': claim }, { ':minusOne': -1 }),
                }),
          }),
          abortSignal,
          DONE_EITHER_WAY,
        ),
      settle: async (signal) => {
        const item = await readForSettling<Record<string, unknown>>(
          tableName(SECRETS_TABLE),
          key,
          [A.pk, A.sk, claim, ...(keyed ? [mark] : [])],
          signal,
        );
        return holds(notSignedOff, item) ? NOT_APPLIED : undefined;
      },
    }).catch((error: unknown) => {
      if (!(error instanceof StoreUnavailable)) throw error;
    });
  }
}

/** Whose revocation deletes a head: its owner's, while it is live. */
const revocableBy = (owner: string, now: number): Condition => ({ all: [{ path: A.owner, op: '=', value: owner }, ...liveAt(now)] });

/** A revocation that finds no head left: every chunk the secret may have had goes, since the head that counted them is gone. */
const HEAD_GONE = (id: string) => ({ chunks: MAX_CHUNKS_PER_SECRET, chunkId: id });

/**
 * Deletes a live secret if `owner` created it, and keeps its receipt at once, so that a status
 * read after the answer finds `revoked` (the stream consumer writes the same receipt again); false
 * for any other (unknown, expired, foreign). A refusal reads nothing back: its time tells a
 * stranger neither whether nor how large a secret is there. A repeat that finds no head at all
 * (a small read) is taken for the revocation it repeats (see docs/retried-writes.md for the
 * double fault it misreads), and so is a settling read that finds none after a lost answer: it
 * answers true and deletes every chunk the secret may have had. So does the client's repeat of a
 * keyed revocation (`repeated`), a request of its own.
 */
export async function revokeSecret(id: string, owner: string, now: number, repeated = false): Promise<boolean> {
  const revoked = await settledWrite<{ chunks: number; chunkId: string; head?: HeadItem } | false>({
    write: async (abortSignal) => {
      try {
        const { Attributes } = await dynamo.send(
          new DeleteCommand({
            TableName: tableName(SECRETS_TABLE),
            Key: { pk: id, sk: SECRET_HEAD_SK },
            ...renderCondition(revocableBy(owner, now)),
            ReturnValues: 'ALL_OLD',
          }),
          { abortSignal },
        );
        const head = Attributes as HeadItem;
        return { chunks: head.chunks ?? 0, chunkId: head.chunkId ?? id, head };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        if (!(repeated || isRetriedConditionFailure(error))) return false;
        return (await readHeadForSettling(id, abortSignal)) === undefined ? HEAD_GONE(id) : false;
      }
    },
    settle: async (signal) => ((await readHeadForSettling(id, signal)) === undefined ? HEAD_GONE(id) : NOT_APPLIED),
  });
  if (revoked === false) return false;
  const { chunks, chunkId, head } = revoked;
  // The head was the commit point: the secret is revoked, whatever happens to its receipt and
  // chunks. If the store does not answer, the stream consumer writes the one and deletes the
  // others from the head's last image (revokedChunksOf). A 503 here would send the client's retry
  // to a 404.
  if (head) await putReceipt(id, owner, receiptOf(head, 'revoked')).catch(leftToTheStreamConsumer);
  if (chunks > 0) await deleteChunks(chunkId, chunks).catch(leftToTheStreamConsumer);
  return true;
}

const leftToTheStreamConsumer = (error: unknown): void => {
  if (!(error instanceof StoreUnavailable)) throw error;
};

/** A revocation's outcome when it may not delete (a repeat that may have overtaken its first): */
export const NOT_REVOKED_YET = 'not revoked yet';

/**
 * What a repeat of a keyed revocation answers while its first may still be at work, deleting
 * nothing: true if the head is gone (the first deleted it), NOT_REVOKED_YET if `owner` could
 * still revoke it, false otherwise. Asked with a DeleteItem whose condition never holds, the
 * revoke route's role may delete, not read.
 */
export const revocationSoFar = (id: string, owner: string, now: number): Promise<boolean | typeof NOT_REVOKED_YET> =>
  settledWrite({
    write: async (abortSignal) => {
      try {
        await dynamo.send(
          new DeleteCommand({
            TableName: tableName(SECRETS_TABLE),
            Key: { pk: id, sk: SECRET_HEAD_SK },
            ...renderCondition(NEVER),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
          { abortSignal },
        );
        throw new Error('a condition that never holds held');
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const head = itemOfConditionFailure<HeadItem>(error);
        if (head === undefined) return true;
        return holds(revocableBy(owner, now), head) ? NOT_REVOKED_YET : false;
      }
    },
    // It deletes nothing: asking again is safe.
    settle: repeatIt,
  });

/**
 * Whether a keyed create's repeat may answer with the head under `id`: true once it has marked
 * the head `repeatAnsweredAt`, so that the repeat's first, if it is still at work and fails, does
 * not undo a secret whose id the repeat answered (undoCreate). While the first may be at work, a
 * head it has marked `undoneAt` is on its way out: false. Once the first is surely over, that
 * head is whole (an undo deletes chunks only after the head), and the repeat takes it back.
 * An UpdateItem reading nothing back: the create route's role may not read a secret.
 */
export const answerWithHead = (id: string, firstMayBeAtWork: boolean): Promise<boolean> =>
  settledWrite({
    write: (abortSignal) =>
      sendConditional(
        new UpdateCommand({
          TableName: tableName(SECRETS_TABLE),
          Key: { pk: id, sk: SECRET_HEAD_SK },
          UpdateExpression: firstMayBeAtWork ? 'SET repeatAnsweredAt = :now' : 'SET repeatAnsweredAt = :now REMOVE undoneAt',
          ...renderCondition(
            { all: [{ path: A.pk, op: 'exists' }, ...(firstMayBeAtWork ? [{ path: A.undoneAt, op: 'absent' as const }] : [])] },
            {},
            { ':now': Date.now() },
          ),
        }),
        abortSignal,
        WHETHER_IT_HELD,
      ),
    // Marking the same head again gives the same outcome: its own mark does not refuse it.
    settle: repeatIt,
  });

/** The data of `count` chunk items under `id`, in order; undefined if any is missing. */
export async function readChunks(id: string, count: number): Promise<string | undefined> {
  const items = await batchGetAll<ChunkItem>(tableName(SECRETS_TABLE), chunkKeys(id, count));
  if (items.length !== count) return undefined;
  // Appending builds the data without copying it (join would copy up to 5 MiB); it is copied
  // once, when the response is encoded.
  let data = '';
  for (const item of items.sort((a, b) => a.sk.localeCompare(b.sk))) data += base64Of(item.data);
  return data;
}

/** What the stream consumer needs to delete a consumed secret: its id and its chunk count. */
export interface ConsumedSecret {
  id: string;
  chunks: number;
  /** Where the chunks are stored when not under `id` (an answer's). */
  chunkId?: string;
}

/**
 * Deletes a secret whose views are all taken and whose chunks (if any) nobody still reads: no
 * claim counted in `readers`, or none still at work, CLAIMANTS_DONE_MS after the last view. Called
 * by the stream consumer for each head update that may have left it so; true when its head is
 * gone now. Safe to repeat: a head already gone (deleted by an earlier attempt or delivery of
 * this record) still has its chunks deleted, from the count the record carries; a secret still
 * in use is left alone.
 */
export async function deleteConsumedSecret({ id, chunks, chunkId }: ConsumedSecret): Promise<boolean> {
  const deleted = await settledWrite<boolean>({
    write: (abortSignal) =>
      sendConditional(
        new DeleteCommand({
          TableName: tableName(SECRETS_TABLE),
          Key: { pk: id, sk: SECRET_HEAD_SK },
          // Inline data has no readers to wait for: every claim counts `readers` up, only chunked
          // ones count down. Nor has chunked data once every claim of it has ended, signed off or not.
          ...renderCondition({
            all: [
              { path: A.remaining, op: '=', value: 0 },
              {
                any: [
                  { path: A.chunks, op: 'absent' },
                  { path: A.readers, op: '=', value: 0 },
                  { path: A.viewedAt, op: '<', value: Date.now() - CLAIMANTS_DONE_MS },
                ],
              },
            ],
          }),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
        abortSignal,
        { applied: () => true, refused: (old) => old === undefined },
      ),
    // A head still there is sent the delete again, whose condition decides.
    settle: async (signal) => ((await readHeadForSettling(id, signal)) === undefined ? true : NOT_APPLIED),
  });
  if (!deleted) return false;
  if (chunks > 0) await deleteChunks(chunkId ?? id, chunks);
  return true;
}

/**
 * Deletes the chunks a revoked secret left under its id, unless a head is back under that id: a
 * keyed create's repeat wrote the secret again, and the chunks are its own now, deleted by its own
 * last view or revocation. Never deletes a head: one that is back may be used up and still kept
 * for its last view's repeat (REPLAY_RETENTION_MS), which deleting it would cut short.
 */
export async function deleteRevokedChunks({ id, chunks }: ConsumedSecret): Promise<void> {
  if ((await readHeadForSettling(id, undefined)) !== undefined) return;
  await deleteChunks(id, chunks);
}

export const deleteChunks = (id: string, count: number): Promise<void> =>
  settledWrite({
    write: (abortSignal) =>
      batchWriteAll(
        tableName(SECRETS_TABLE),
        chunkKeys(id, count).map((Key) => ({ DeleteRequest: { Key } })),
        abortSignal,
      ),
    // Deleting what is gone changes nothing.
    settle: repeatIt,
  });
