import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DATA_CHUNK_BYTES, SECRET_TTLS, type SecretType } from '../definitions/limits';
import { SECRETS_TABLE, SECRET_ATTRIBUTES as A, SECRET_HEAD_SK } from '../definitions/tables';
import { dynamo, epochSeconds, isConditionFailure, itemOfConditionFailure, tableName } from './dynamo';
import { deleteChunks, splitIntoChunks, storedData, writeChunks } from './secret-store';
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

export async function putRequest(request: NewRequest): Promise<void> {
  const createToken = newWriteToken();
  await dynamo.send(
    new PutCommand({
      TableName: tableName(SECRETS_TABLE),
      Item: {
        [A.pk]: request.id,
        [A.sk]: SECRET_HEAD_SK,
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
        [A.createToken]: createToken,
      },
      // As for secrets: a repeat of this put rewrites the same item.
      ConditionExpression: 'attribute_not_exists(pk) OR createToken = :createToken',
      ExpressionAttributeValues: { ':createToken': createToken },
    }),
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

export type FulfilOutcome = 'fulfilled' | 'already-fulfilled' | 'not-found';

/**
 * Gives an open, unexpired request its answer: one conditional update for data up to
 * DATA_CHUNK_BYTES; larger data goes first into chunks under an id of this fulfilment's own, so
 * that two senders racing cannot mix their chunks, and the loser's are deleted again. A repeat of
 * the update that finds this fulfilment's token is the fulfilment it repeats.
 */
export async function fulfilRequest(id: string, answer: Answer, now: number): Promise<FulfilOutcome> {
  const fulfilToken = newWriteToken();
  const inline = answer.data.length <= DATA_CHUNK_BYTES;
  const chunkId = `${id}.${fulfilToken}`;
  const chunks = inline ? [] : splitIntoChunks(answer.data);
  // The lifetime is the request's (not read, to keep this one call): the chunks carry the longest
  // one, and go with the answer's view like any secret's; only an answer left to expire keeps them longer.
  if (!inline) await writeChunks(chunkId, chunks, epochSeconds(now) + MAX_ANSWER_LIFETIME_SECONDS);

  const values: Record<string, unknown> = {
    ':open': OPEN,
    ':fulfilled': FULFILLED,
    ':token': fulfilToken,
    ':now': now,
    ':nowSeconds': epochSeconds(now),
    ':one': 1,
    ':type': answer.type,
    ...(inline ? { ':data': storedData(answer.data) } : { ':chunks': chunks.length, ':chunkId': chunkId }),
    ...(answer.filename !== undefined ? { ':filename': answer.filename } : {}),
    ...(answer.mimetype !== undefined ? { ':mimetype': answer.mimetype } : {}),
  };
  const sets = [
    `${A.requestState} = :fulfilled`,
    `${A.fulfilToken} = :token`,
    `${A.fulfilledAt} = :now`,
    `#type = :type`,
    `${A.remaining} = :one`,
    `${A.expires} = :now + ${A.lifetime}`,
    `#ttl = :nowSeconds + ${A.lifetimeSeconds}`,
    ...(inline ? [`#data = :data`] : [`${A.chunks} = :chunks`, `${A.chunkId} = :chunkId`]),
    ...(answer.filename !== undefined ? [`${A.filename} = :filename`] : []),
    ...(answer.mimetype !== undefined ? [`${A.mimetype} = :mimetype`] : []),
  ];
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(SECRETS_TABLE),
        Key: { pk: id, sk: SECRET_HEAD_SK },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `(${A.requestState} = :open AND ${A.expires} > :now) OR ${A.fulfilToken} = :token`,
        ExpressionAttributeNames: { '#type': A.type, '#ttl': A.ttl, ...(inline ? { '#data': A.data } : {}) },
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'fulfilled';
  } catch (error) {
    if (!inline) await deleteChunks(chunkId, chunks.length).catch(() => undefined);
    if (!isConditionFailure(error)) throw error;
    const old = itemOfConditionFailure<Record<string, unknown>>(error);
    return old?.[A.requestState] === FULFILLED ? 'already-fulfilled' : 'not-found';
  }
}

/** The longest ttl a request may give its answer, in seconds: its chunks' ttl. */
const MAX_ANSWER_LIFETIME_SECONDS = Math.max(...Object.values(SECRET_TTLS)) / 1000;
