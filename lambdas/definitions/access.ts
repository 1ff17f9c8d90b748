import {
  ADDRESS_BYTE_SLOT_PREFIX,
  ATTEMPT_ATTRIBUTE_PREFIX,
  CLAIM_ATTRIBUTE_PREFIX,
  DELIVERY_CLAIM_PK_PREFIX,
  KEY_ATTRIBUTES as KEY,
  RECEIPT_ITEM_ATTRIBUTES,
  RECEIPT_READ_ATTRIBUTES,
  SECRET_ATTRIBUTES as SECRET,
} from './tables';

/** What a function may do to the tables, as the stack grants it; the integration run checks it (docs/security.md). */

export type DynamoDbAction =
  'dynamodb:GetItem' | 'dynamodb:BatchGetItem' | 'dynamodb:PutItem' | 'dynamodb:UpdateItem' | 'dynamodb:DeleteItem' | 'dynamodb:BatchWriteItem';

export type ReturnValue = 'NONE' | 'ALL_OLD' | 'UPDATED_OLD' | 'ALL_NEW' | 'UPDATED_NEW';

/** One statement of a function's role on one table. */
export interface TableGrant {
  readonly actions: readonly DynamoDbAction[];
  /** dynamodb:Attributes: all the request may name, in key, item, update and condition alike; `x*` is a prefix. */
  readonly attributes?: readonly string[];
  /** dynamodb:ReturnValues: what the request may read back; DynamoDB's default, NONE, when it asks for nothing. */
  readonly returnValues?: readonly ReturnValue[];
  /** Reads: dynamodb:Select must be SPECIFIC_ATTRIBUTES, so that a read without a projection is refused. */
  readonly specificAttributesOnly?: true;
  /** dynamodb:LeadingKeys: the partition keys the request may address, as StringLike patterns. */
  readonly leadingKeys?: readonly string[];
}

export interface TableAccess {
  readonly keys?: readonly TableGrant[];
  readonly secrets?: readonly TableGrant[];
}

/** Every authenticated request: counts it in its key's rate-limit slots; it cannot name the key's expiry or webhook. */
export const COUNT_REQUEST: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [KEY.pk, KEY.rateLimitSlots, KEY.counted],
  returnValues: ['ALL_NEW'],
};

/** The routes that take an Idempotency-Key: record, answer or release the request (store/idempotency-store.ts). */
export const RECORD_IDEMPOTENT_REQUEST: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [KEY.pk, KEY.ttl, KEY.idempotency],
  returnValues: ['NONE'],
};

/** POST /secrets and POST /requests/{id}: the count that also adds the body's bytes to the key's day (rules/stored-bytes-window). */
export const COUNT_SECRET_CREATE: TableGrant = {
  ...COUNT_REQUEST,
  attributes: [...(COUNT_REQUEST.attributes ?? []), KEY.storedBytes],
};

/** PATCH /keys only: sets or removes the key's webhook, reading nothing back. */
export const SET_WEBHOOK: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [KEY.pk, KEY.webhook],
  returnValues: ['NONE'],
};

/** POST /keys: appends to a client address's attempt log (and prunes it, reading nothing back). */
export const LOG_CREATION_ATTEMPT: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [KEY.pk, KEY.creationLog, KEY.ttl, KEY.logged],
  returnValues: ['ALL_NEW', 'NONE'],
};

/**
 * Webhook delivery: claims an event's delivery for one queue message and lets the claim go when
 * that message is dead-lettered (store/delivery-claims.ts). Only claim items: it cannot touch a key.
 */
export const CLAIM_DELIVERY: TableGrant = {
  actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
  attributes: [KEY.pk, KEY.ttl, KEY.claimedBy],
  returnValues: ['NONE'],
  leadingKeys: [`${DELIVERY_CLAIM_PK_PREFIX}*`],
};

/** POST /keys: writes the new key, and cannot read back a key it would replace. */
export const PUT_KEY: TableGrant = {
  actions: ['dynamodb:PutItem'],
  attributes: [
    KEY.pk,
    KEY.created,
    KEY.expires,
    KEY.ttl,
    KEY.webhookSecret,
    KEY.webhook,
    KEY.rateLimitSlots,
    KEY.storedBytes,
    KEY.access,
    KEY.subject,
  ],
  returnValues: ['NONE'],
};

/** POST /secrets or /requests/{id} refused for its bytes: takes them back from the key's hour slot, reading nothing back. */
export const UNCOUNT_KEY_BYTES: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [KEY.pk, KEY.storedBytes, KEY.uncounted],
  returnValues: ['NONE'],
};

/** POST /secrets and /requests/{id} above STORED_BYTES_LIMIT.addressCountedAbove: count the bytes against the client's address. */
export const COUNT_ADDRESS_BYTES: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [KEY.pk, KEY.ttl, KEY.counted, KEY.uncounted, `${ADDRESS_BYTE_SLOT_PREFIX}*`],
  returnValues: ['ALL_NEW', 'NONE'],
};

/** POST /secrets: writes the head item (or, undoing a failed create, marks it `undoneAt`), reading nothing back. */
export const PUT_SECRET_HEAD: TableGrant = {
  actions: ['dynamodb:PutItem'],
  attributes: [
    SECRET.pk,
    SECRET.sk,
    SECRET.owner,
    SECRET.type,
    SECRET.filename,
    SECRET.mimetype,
    SECRET.views,
    SECRET.remaining,
    SECRET.created,
    SECRET.expires,
    SECRET.ttl,
    SECRET.data,
    SECRET.chunks,
    SECRET.createToken,
    SECRET.gate,
    SECRET.attempts,
    SECRET.undoneAt,
    SECRET.repeatAnsweredAt,
  ],
  returnValues: ['NONE'],
};

/** POST /secrets, a keyed create's repeat: marks the head it answers with `repeatAnsweredAt`, reading nothing back. */
export const MARK_SECRET_HEAD_ANSWERED: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [SECRET.pk, SECRET.sk, SECRET.repeatAnsweredAt, SECRET.undoneAt],
  returnValues: ['NONE'],
};

/** GET /secrets/{id}: takes a view and, for chunked data, signs off as reader; the condition reads `expires` and `gate`. */
export const CLAIM_VIEW: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [
    SECRET.pk,
    SECRET.sk,
    SECRET.remaining,
    SECRET.expires,
    SECRET.gate,
    SECRET.viewedAt,
    SECRET.viewed,
    SECRET.readers,
    // Read by the condition: an answer to a request is claimed by its requester's key only.
    SECRET.reader,
    `${CLAIM_ATTRIBUTE_PREFIX}*`,
  ],
  returnValues: ['ALL_NEW', 'NONE'],
};

/** Settling reads (store/settled-write.ts): each reads only what its writes' outcomes need. */
export const KEY_SETTLING_ATTRIBUTES = [
  KEY.pk,
  KEY.created,
  KEY.expires,
  KEY.webhookSecret,
  KEY.webhook,
  KEY.rateLimitSlots,
  KEY.counted,
  KEY.idempotency,
  // What a settled count answers with: the key's bytes of the day, and whether it may create.
  KEY.storedBytes,
  KEY.access,
  KEY.subject,
  // Whether a request's bytes were taken back (store/key-store.ts uncountKeyBytes).
  KEY.uncounted,
] as const;
export const NEW_KEY_SETTLING_ATTRIBUTES = [KEY.pk, KEY.webhookSecret] as const;
export const CREATION_LOG_SETTLING_ATTRIBUTES = [KEY.pk, KEY.creationLog, KEY.logged] as const;
export const HEAD_SETTLING_ATTRIBUTES = [SECRET.pk, SECRET.sk, SECRET.createToken] as const;
/** A claim's: what it answers with, and its own `claim:<token>` (a reader's sign-off reads only that). */
export const CLAIM_SETTLING_ATTRIBUTES = [
  SECRET.pk,
  SECRET.sk,
  SECRET.type,
  SECRET.filename,
  SECRET.mimetype,
  SECRET.remaining,
  SECRET.expires,
  SECRET.data,
  SECRET.chunks,
  SECRET.gate,
  SECRET.attempts,
  // An answer to a request: whose it is, and where its chunks are.
  SECRET.reader,
  SECRET.chunkId,
] as const;

/** A request's fulfilment: whose it is (its token), or what the request's state would answer. */
export const FULFILMENT_SETTLING_ATTRIBUTES = [SECRET.pk, SECRET.sk, SECRET.requestState, SECRET.fulfilToken, SECRET.expires] as const;

/** A wrong passphrase proof's count and burn: what decides their outcome, and their own `attempt:<token>`. */
export const ATTEMPT_SETTLING_ATTRIBUTES = [SECRET.pk, SECRET.sk, SECRET.attempts, SECRET.remaining, SECRET.expires] as const;

/** Every authenticated route: settles its rate-limit count (and PATCH and DELETE /keys their writes) by the key item. */
export const SETTLE_KEY: TableGrant = { actions: ['dynamodb:GetItem'], attributes: KEY_SETTLING_ATTRIBUTES };
/** POST /secrets and /requests/{id}: SETTLE_KEY and the address's byte count (store/address-bytes.ts), in one statement. */
export const SETTLE_KEY_AND_ADDRESS_BYTES: TableGrant = {
  actions: ['dynamodb:GetItem'],
  attributes: [...KEY_SETTLING_ATTRIBUTES, `${ADDRESS_BYTE_SLOT_PREFIX}*`],
};
/** POST /keys: settles its attempt log append and its key put, reading no key but the one it makes. */
export const SETTLE_KEY_CREATION: TableGrant = {
  actions: ['dynamodb:GetItem'],
  attributes: [...new Set([...CREATION_LOG_SETTLING_ATTRIBUTES, ...NEW_KEY_SETTLING_ATTRIBUTES])],
};
/** POST /secrets, DELETE /secrets/{id} and the stream consumer: settle a head's put or deletion by its token or absence. */
export const SETTLE_SECRET_HEAD: TableGrant = { actions: ['dynamodb:GetItem'], attributes: HEAD_SETTLING_ATTRIBUTES };
/** POST /requests/{id}: settles its fulfilment by the request's state and token. */
export const SETTLE_FULFILMENT: TableGrant = { actions: ['dynamodb:GetItem'], attributes: FULFILMENT_SETTLING_ATTRIBUTES };
/** GET /secrets/{id}: settles its claim, its reader sign-off and its count of a wrong proof. */
export const SETTLE_CLAIM: TableGrant = {
  actions: ['dynamodb:GetItem'],
  attributes: [
    ...new Set([...CLAIM_SETTLING_ATTRIBUTES, ...ATTEMPT_SETTLING_ATTRIBUTES]),
    `${CLAIM_ATTRIBUTE_PREFIX}*`,
    `${ATTEMPT_ATTRIBUTE_PREFIX}*`,
  ],
};

/** GET /secrets/{id} with a wrong proof: counts it, the last one burns the secret; it cannot name data, gate or owner. */
export const COUNT_WRONG_PROOF: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [
    SECRET.pk,
    SECRET.sk,
    SECRET.attempts,
    SECRET.remaining,
    SECRET.expires,
    SECRET.burnedAt,
    SECRET.readers,
    `${ATTEMPT_ATTRIBUTE_PREFIX}*`,
  ],
  returnValues: ['UPDATED_NEW', 'NONE'],
};

/** GET /secrets/{id}/status: reads head and receipt in one call, only a receipt's attributes (never data or gate). */
export const READ_RECEIPT: TableGrant = { actions: ['dynamodb:BatchGetItem'], attributes: RECEIPT_READ_ATTRIBUTES, specificAttributesOnly: true };

/** The stream consumer: writes the receipt of a secret whose head was deleted, reading nothing back. */
export const PUT_RECEIPT: TableGrant = { actions: ['dynamodb:PutItem'], attributes: RECEIPT_ITEM_ATTRIBUTES, returnValues: ['NONE'] };

/** POST /requests: writes a request, the head of its future answer (docs/data-model.md), reading nothing back. */
export const PUT_REQUEST: TableGrant = {
  actions: ['dynamodb:PutItem'],
  attributes: [
    SECRET.pk,
    SECRET.sk,
    SECRET.owner,
    SECRET.reader,
    SECRET.views,
    SECRET.remaining,
    SECRET.created,
    SECRET.expires,
    SECRET.ttl,
    SECRET.publicKey,
    SECRET.note,
    SECRET.requestState,
    SECRET.lifetime,
    SECRET.lifetimeSeconds,
    SECRET.createToken,
  ],
  returnValues: ['NONE'],
};

/** POST /requests/{id}: gives an open request its answer and one view; it cannot name owner or reader. */
export const FULFIL_REQUEST: TableGrant = {
  actions: ['dynamodb:UpdateItem'],
  attributes: [
    SECRET.pk,
    SECRET.sk,
    SECRET.requestState,
    SECRET.fulfilToken,
    SECRET.fulfilledAt,
    SECRET.type,
    SECRET.filename,
    SECRET.mimetype,
    SECRET.data,
    SECRET.chunks,
    SECRET.chunkId,
    SECRET.remaining,
    SECRET.expires,
    SECRET.ttl,
    SECRET.lifetime,
    SECRET.lifetimeSeconds,
  ],
  returnValues: ['NONE'],
};
