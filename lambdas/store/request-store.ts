import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { INLINE_DATA_MAX_BYTES, SECRET_TTLS, type SecretType } from '#contract/limits';
import { SECRETS_TABLE, SECRET_ATTRIBUTES as A, SECRET_HEAD_SK } from '../definitions/tables';
import { FULFILMENT_SETTLING_ATTRIBUTES } from '../definitions/access';
import { NEVER, holds, renderCondition, writtenBy, type Condition } from './condition';
import { dynamo, epochSeconds, sendConditional, tableName } from './dynamo';
import { NOT_APPLIED, readForSettling, repeatIt, settledWrite } from './settled-write';
import { deleteChunks, putHead, splitIntoChunks, storedData, writeChunks } from './secret-store';
import { newWriteToken } from './write-token';

/**
 * Secret requests in the secrets table (docs/data-model.md): a request IS the head of its future
 * answer, under the request's id, with no view to take (`remaining` 0) until it is fulfilled.
 * Fulfilling is then one conditional update that gives the head its data and its one view, so the
 * answer is a secret like any other (claim, expiry, deletion after its view, webhooks), owned by
 * the requester's key and claimable by that key only (`reader`).
 */

const OPEN = 'open';
const FULFILLED = 'fulfilled';

export interface NewRequest {
  id: string;
  owner: string;
  publicKey: string;
  note?: string;
  created: number;
  expires: number;
  /** How long the answer is kept once given (ms, a whole number of seconds). */
  lifetime: number;
}

/** What the routes read of a request: never its answer's data. */
export interface StoredRequest {
  owner: string;
  publicKey: string;
  note?: string;
  requestState: typeof OPEN | typeof FULFILLED;
  expires: number;
  remaining: number;
  fulfilledAt?: number;
}

const REQUEST_PROJECTION = [A.owner, A.publicKey, A.note, A.requestState, A.expires, A.remaining, A.fulfilledAt] as const;

/**
 * Writes a new request. `keyedToken`: a create with an Idempotency-Key, whose repeats write the
 * same item under the same (derived) id and token: rewriting it while it is open changes nothing,
 * and once it is fulfilled the write is refused, and the request is the first's.
 */
export async function putRequest(request: NewRequest, keyedToken?: string): Promise<void> {
  await putHead(
    {
      pk: request.id,
      sk: SECRET_HEAD_SK,
      [A.owner]: request.owner,
      [A.reader]: request.owner,
      [A.views]: 1,
      [A.remaining]: 0,
      [A.created]: request.created,
      [A.expires]: request.expires,
      [A.ttl]: epochSeconds(request.expires),
      [A.publicKey]: request.publicKey,
      ...(request.note !== undefined ? { [A.note]: request.note } : {}),
      [A.requestState]: OPEN,
      [A.lifetime]: request.lifetime,
      [A.lifetimeSeconds]: request.lifetime / 1000,
      createToken: keyedToken ?? newWriteToken(),
    },
    // As for secrets: a repeat of this put rewrites the same item, while nobody has answered it.
    { path: A.requestState, op: '=', value: OPEN },
    keyedToken !== undefined,
  );
}

/** The request under `id`, or undefined when there is none (a plain secret is none). */
export async function readRequest(id: string): Promise<StoredRequest | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName(SECRETS_TABLE),
      Key: { pk: id, sk: SECRET_HEAD_SK },
      ConsistentRead: true,
      ProjectionExpression: REQUEST_PROJECTION.map((_, index) => `#a${index}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(REQUEST_PROJECTION.map((name, index) => [`#a${index}`, name])),
    }),
  );
  return Item?.[A.requestState] === undefined ? undefined : (Item as StoredRequest);
}

export interface Answer {
  data: string;
  type: SecretType;
  filename?: string;
  mimetype?: string;
}

/** A fulfilment's repeat that may not write yet found the request still open: its first may be at work. */
export const NOT_FULFILLED_YET = 'not fulfilled yet';

export type FulfilOutcome = 'fulfilled' | 'already-fulfilled' | 'not-found' | typeof NOT_FULFILLED_YET;

/** A fulfilment with an Idempotency-Key (use-cases/requests). */
export interface KeyedFulfilment {
  /** Derived from the scope's first request: the first's fulfilment carries it, its repeats look for it. */
  token: string;
  /**
   * `first`: the scope's first request. `repeat`: a repeat whose first is surely over, which
   * fulfils if the request is still open. `probe`: a repeat whose first may still be at work,
   * which writes nothing.
   */
  as: 'first' | 'repeat' | 'probe';
}

/**
 * Gives an open, unexpired request its answer: one conditional update for data up to
 * INLINE_DATA_MAX_BYTES; larger data goes first into chunks under an id of this call's own, so that
 * two senders (or a fulfilment and its keyed repeat) racing cannot mix or delete each other's
 * chunks, and the loser's are deleted again. A repeat of the update that finds this fulfilment's
 * token is the fulfilment it repeats; a keyed repeat (`keyed`) never rewrites one, since the
 * requester may have taken the answer's view since: finding its token is its answer.
 */
export async function fulfilRequest(id: string, answer: Answer, now: number, keyed?: KeyedFulfilment): Promise<FulfilOutcome> {
  const fulfilToken = keyed?.token ?? newWriteToken();
  const probe = keyed?.as === 'probe';
  const inline = answer.data.length <= INLINE_DATA_MAX_BYTES;
  const chunkId = `${id}.${newWriteToken()}`;
  const chunks = inline || probe ? [] : splitIntoChunks(answer.data);
  // The lifetime is the request's (not read, to keep this one call): the chunks carry the longest
  // one, and go with the answer's view like any secret's; only an answer left to expire keeps them longer.
  if (chunks.length > 0) await writeChunks(chunkId, chunks, epochSeconds(now) + MAX_ANSWER_LIFETIME_SECONDS);

  const table = tableName(SECRETS_TABLE);
  const key = { pk: id, sk: SECRET_HEAD_SK };
  const open = openAt(now);
  const ownAnswer = writtenBy(A.fulfilToken, fulfilToken);
  /** What the item says this fulfilment answers, when its update did not (or could not) apply. */
  const outcomeOf = (item: Record<string, unknown> | undefined): FulfilOutcome => {
    if (holds(ownAnswer, item)) return 'fulfilled';
    if (probe && holds(open, item)) return NOT_FULFILLED_YET;
    return item?.[A.requestState] === FULFILLED ? 'already-fulfilled' : 'not-found';
  };
  /** Only the few attributes that decide (never the answer's data), so that a refusal takes as long whatever the request holds. */
  const readRequest = (signal: AbortSignal | undefined) =>
    readForSettling<Record<string, unknown>>(table, key, FULFILMENT_SETTLING_ATTRIBUTES, signal);
  let outcome: FulfilOutcome;
  try {
    outcome = await settledWrite<FulfilOutcome>({
      write: (abortSignal) =>
        sendConditional(
          new UpdateCommand({
            TableName: table,
            Key: key,
            ...(probe
              ? probeUpdate()
              : answerUpdate(answer, now, fulfilToken, inline ? undefined : { count: chunks.length, chunkId }, keyed?.as !== 'repeat')),
          }),
          abortSignal,
          { applied: () => 'fulfilled', refused: async () => outcomeOf(await readRequest(abortSignal)) },
        ),
      // A probe writes nothing: it is asked again. An answer is settled by its token, else by
      // whether the request is still open (then it is sent again).
      settle: probe
        ? repeatIt
        : async (signal) => {
            const item = await readRequest(signal);
            return !holds(ownAnswer, item) && holds(open, item) ? NOT_APPLIED : outcomeOf(item);
          },
    });
  } catch (error) {
    if (chunks.length > 0) await deleteChunks(chunkId, chunks.length).catch(() => undefined);
    throw error;
  }
  if (outcome !== 'fulfilled' && chunks.length > 0) await deleteChunks(chunkId, chunks.length).catch(() => undefined);
  return outcome;
}

type UpdateParts = Pick<UpdateCommandInput, 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>;

/** The update that answers an open request; `ownRepeat`: it also holds where this fulfilment's token is (an SDK retry of it). */
function answerUpdate(
  answer: Answer,
  now: number,
  fulfilToken: string,
  chunked: { count: number; chunkId: string } | undefined,
  ownRepeat: boolean,
): UpdateParts {
  const sets = [
    `${A.requestState} = :fulfilled`,
    `${A.fulfilToken} = :token`,
    `${A.fulfilledAt} = :now`,
    `#type = :type`,
    `${A.remaining} = :one`,
    `${A.expires} = :now + ${A.lifetime}`,
    `#ttl = :nowSeconds + ${A.lifetimeSeconds}`,
    ...(chunked ? [`${A.chunks} = :chunks`, `${A.chunkId} = :chunkId`] : [`#data = :data`]),
    ...(answer.filename !== undefined ? [`${A.filename} = :filename`] : []),
    ...(answer.mimetype !== undefined ? [`${A.mimetype} = :mimetype`] : []),
  ];
  const condition: Condition = ownRepeat ? { any: [openAt(now), writtenBy(A.fulfilToken, fulfilToken)] } : openAt(now);
  return {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ...renderCondition(
      condition,
      { '#type': A.type, '#ttl': A.ttl, ...(chunked ? {} : { '#data': A.data }) },
      {
        ':fulfilled': FULFILLED,
        ':token': fulfilToken,
        ':now': now,
        ':nowSeconds': epochSeconds(now),
        ':one': 1,
        ':type': answer.type,
        ...(chunked ? { ':chunks': chunked.count, ':chunkId': chunked.chunkId } : { ':data': storedData(answer.data) }),
        ...(answer.filename !== undefined ? { ':filename': answer.filename } : {}),
        ...(answer.mimetype !== undefined ? { ':mimetype': answer.mimetype } : {}),
      },
    ),
  };
}

/** A request that an answer may fulfil: open, and not expired. */
const openAt = (now: number): Condition => ({
  all: [
    { path: A.requestState, op: '=', value: OPEN },
    { path: A.expires, op: '>', value: now },
  ],
});

/**
 * Reads the request back through a condition that never holds, writing nothing: the fulfil
 * route's role may update, not read, a request.
 */
const probeUpdate = (): UpdateParts => ({
  UpdateExpression: `SET ${A.requestState} = :fulfilled`,
  ...renderCondition(NEVER, {}, { ':fulfilled': FULFILLED }),
});

/** The longest ttl a request may give its answer, in seconds: its chunks' ttl. */
const MAX_ANSWER_LIFETIME_SECONDS = Math.max(...Object.values(SECRET_TTLS)) / 1000;
