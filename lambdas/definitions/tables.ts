/** The two DynamoDB tables, described once for the stack, local mode, tests and stores. */

export interface TableDefinition {
  /** Logical id in the stack and default name in local mode. */
  readonly id: string;
  /** Environment variable through which functions learn the table's name. */
  readonly envVar: string;
  readonly partitionKey: string;
  readonly sortKey?: string;
  /** Attribute holding the epoch-seconds expiry DynamoDB TTL acts on. */
  readonly ttlAttribute: string;
  readonly stream?: 'NEW_AND_OLD_IMAGES';
}

/** API keys (item per key, keyed by the key's SHA-256) and per-IP key-creation logs. */
export const KEYS_TABLE = {
  id: 'ApiKeys',
  envVar: 'KEYS_TABLE_NAME',
  partitionKey: 'pk',
  ttlAttribute: 'ttl',
} as const satisfies TableDefinition;

/** Secrets: a head item per secret plus, for large data, chunk items (see secretChunkKey). */
export const SECRETS_TABLE = {
  id: 'Secrets',
  envVar: 'SECRETS_TABLE_NAME',
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  stream: 'NEW_AND_OLD_IMAGES',
} as const satisfies TableDefinition;

export const TABLES: readonly TableDefinition[] = [KEYS_TABLE, SECRETS_TABLE];

/** Attribute names of the keys table's items: the stores write them, the stack's grants allow them (access.ts). */
export const KEY_ATTRIBUTES = {
  pk: KEYS_TABLE.partitionKey,
  ttl: KEYS_TABLE.ttlAttribute,
  created: 'created',
  expires: 'expires',
  webhookSecret: 'webhookSecret',
  webhook: 'webhook',
  /** REVEAL_ONLY on a key minted without a sign-in token (definitions/create-access.ts); absent: a full key. */
  access: 'access',
  /** SHA-256 of the sign-in token's issuer and subject, on a key minted with one. */
  subject: 'subject',
  /** Request counts per rate-limit slot (core/sliding-window). */
  rateLimitSlots: 'rl',
  /** The write token of the request counted last (on a key's item, and on an address's bytes item). */
  counted: 'counted',
  /** The write token of the request whose bytes were taken back last (store/address-bytes.ts, key-store.ts). */
  uncounted: 'uncounted',
  /** Bytes sent to POST /secrets and POST /requests/{id} per hour slot (rules/stored-bytes-window.ts), a map on a key's item. */
  storedBytes: 'sb',
  /** A client address's key-creation attempts (store/key-creation-log). */
  creationLog: 'log',
  /** The write token of the creation attempt logged last. */
  logged: 'logged',
  /** The record of a request that carried an Idempotency-Key (rules/idempotency), on its scope's item. */
  idempotency: 'idem',
  /** On a delivery claim's item: the queue message that holds the event's delivery (store/delivery-claims.ts). */
  claimedBy: 'claimedBy',
} as const;

export const SECRET_ATTRIBUTES = {
  pk: SECRETS_TABLE.partitionKey,
  sk: SECRETS_TABLE.sortKey,
  ttl: SECRETS_TABLE.ttlAttribute,
  owner: 'owner',
  type: 'type',
  filename: 'filename',
  mimetype: 'mimetype',
  views: 'views',
  remaining: 'remaining',
  created: 'created',
  expires: 'expires',
  data: 'data',
  chunks: 'chunks',
  readers: 'readers',
  viewedAt: 'viewedAt',
  createToken: 'createToken',
  /** Secret requests (store/request-store.ts): a request is the head of its answer, waiting with no view. */
  publicKey: 'publicKey',
  note: 'note',
  /** `open` until fulfilled, then `fulfilled`: present on requests only. */
  requestState: 'requestState',
  /** The only key that may claim the head (an answer's requester); absent: any key. */
  reader: 'reader',
  /** How long the answer is kept once given (ms). */
  lifetime: 'lifetime',
  /** The same in seconds, for the answer's `ttl` (an update expression can add, not divide). */
  lifetimeSeconds: 'lifetimeSeconds',
  fulfilledAt: 'fulfilledAt',
  /** Written by a fulfilment, so that its repeat can tell its own fulfilment from another's. */
  fulfilToken: 'fulfilToken',
  /** The id an answer's chunks are stored under (secretChunkKey), one per fulfilment; absent: the secret's id. */
  chunkId: 'chunkId',
  /** A gated secret's SHA-256 of the passphrase proof, and the wrong proofs it still accepts. */
  gate: 'gate',
  attempts: 'attempts',
  /** When the last wrong proof deleted the secret (ms): the time its webhook event reports. */
  burnedAt: 'burnedAt',
  /** When a failed create marked its own head before deleting it (ms): its removal leaves no receipt. */
  undoneAt: 'undoneAt',
  /** When a keyed create's repeat answered 201 with this head (ms): its first must not undo it then. */
  repeatAnsweredAt: 'repeatAnsweredAt',
  /** The time (ms) of each view taken, in order: what the secret's receipt reports. */
  viewed: 'viewed',
  /** A receipt's final state (rules/receipt's ReceiptState). */
  state: 'state',
} as const;

/** What a receipt item holds (store/receipt-store): no data, filename, mimetype or gate. */
export const RECEIPT_ITEM_ATTRIBUTES = [
  SECRET_ATTRIBUTES.pk,
  SECRET_ATTRIBUTES.sk,
  SECRET_ATTRIBUTES.owner,
  SECRET_ATTRIBUTES.state,
  SECRET_ATTRIBUTES.views,
  SECRET_ATTRIBUTES.remaining,
  SECRET_ATTRIBUTES.created,
  SECRET_ATTRIBUTES.expires,
  SECRET_ATTRIBUTES.viewed,
  SECRET_ATTRIBUTES.ttl,
] as const;

/** What the status route reads of a head and a receipt item: a receipt's facts, and `burnedAt` of a burned head. */
export const RECEIPT_READ_ATTRIBUTES = [
  ...RECEIPT_ITEM_ATTRIBUTES.filter((name) => name !== SECRET_ATTRIBUTES.ttl),
  SECRET_ATTRIBUTES.burnedAt,
  // A secret request's head: no secret until it is answered (docs/data-model.md).
  SECRET_ATTRIBUTES.requestState,
] as const;

/** Each claim records `claim:<its token>` on the head (store/secret-store's claimAttribute). */
export const CLAIM_ATTRIBUTE_PREFIX = 'claim:';
/** A keyed claim's name, derived from the request so that its repeat finds it (rules/idempotency's claimTokenOf). */
export const KEYED_CLAIM_ATTRIBUTE_PREFIX = `${CLAIM_ATTRIBUTE_PREFIX}key:`;

/** Each wrong proof records `attempt:<its token>` = the attempts it left, so that a repeat counts nothing twice. */
export const ATTEMPT_ATTRIBUTE_PREFIX = 'attempt:';

/** Sort key of a secret's head item: its metadata, view count and (small) data; the commit point. */
export const SECRET_HEAD_SK = 'head';
/** Sort key of a secret's receipt item (docs/decisions/receipts.md); not a head, so it sends no stream events. */
export const SECRET_RECEIPT_SK = 'receipt';
/** Key of a large secret's n-th chunk: a partition of its own, as one partition takes 1,000 write units a second. */
export function secretChunkKey(id: string, index: number): { pk: string; sk: string } {
  const position = String(index).padStart(4, '0');
  return { pk: `${id}#${position}`, sk: `chunk#${position}` };
}

export const keyItemPk = (keyHash: string): string => `key#${keyHash}`;
/** A request with an Idempotency-Key: its scope's record, an item apart from its key's (store/idempotency-store.ts). */
export const idempotencyRecordPk = (keyHash: string, scope: string): string => `idem#${keyHash}#${scope}`;
export const ipItemPk = (ipHash: string): string => `ip#${ipHash}`;
/** A webhook event's delivery claim: the prefix is what the delivery function's writes are limited to. */
export const DELIVERY_CLAIM_PK_PREFIX = 'delivery#';
export const deliveryClaimPk = (eventId: string): string => `${DELIVERY_CLAIM_PK_PREFIX}${eventId}`;
/** An address's bytes sent in an hour (store/address-bytes.ts): `sb:<hour index>`, one attribute an hour. */
export const ADDRESS_BYTE_SLOT_PREFIX = 'sb:';
/** A client address's bytes sent in a day: an item apart from its key-creation log, which lives an hour. */
export const addressBytesPk = (ipHash: string): string => `bytes#${ipHash}`;

export interface CreateTableInputShape {
  TableName: string;
  BillingMode: 'PAY_PER_REQUEST';
  AttributeDefinitions: { AttributeName: string; AttributeType: 'S' }[];
  KeySchema: { AttributeName: string; KeyType: 'HASH' | 'RANGE' }[];
  StreamSpecification?: { StreamEnabled: true; StreamViewType: 'NEW_AND_OLD_IMAGES' };
}

/** The CreateTable request for a definition, as local mode and tests issue it. */
export function toCreateTableInput(table: TableDefinition, tableName: string): CreateTableInputShape {
  const keys = [
    { AttributeName: table.partitionKey, KeyType: 'HASH' as const },
    ...(table.sortKey ? [{ AttributeName: table.sortKey, KeyType: 'RANGE' as const }] : []),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keys.map((k) => ({ AttributeName: k.AttributeName, AttributeType: 'S' as const })),
    KeySchema: keys,
    ...(table.stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: table.stream } } : {}),
  };
}
