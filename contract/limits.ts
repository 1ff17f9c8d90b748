/** Every number the API promises, defined once for handlers, stack, local mode and tests. */

export const API_BASE_PATH = '/api/v1';

/** Request bodies above this get 413 (contract: 5 MiB). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export const API_KEY_PREFIX = 'svc_';
export const API_KEY_RANDOM_LENGTH = 32;
export const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9]{${API_KEY_RANDOM_LENGTH}}$`);
/** What GET /keys shows of a key: its prefix, four asterisks, its last four characters. */
export const API_KEY_HINT_PATTERN = new RegExp(`^${API_KEY_PREFIX}\\*{4}[A-Za-z0-9]{4}$`);
export const KEY_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;
/**
 * An expired key's item is kept this long after expiry so that its owner is told
 * "API key expired" rather than "invalid API key"; DynamoDB TTL removes it afterwards.
 */
export const EXPIRED_KEY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_RANDOM_LENGTH = 32;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** SITE_URL, the base of every secret's link, so that a link's length is bounded too. */
export const SITE_URL_MAX_LENGTH = 2048;

export const RATE_LIMIT = {
  requests: 100,
  windowMs: 60_000,
  /** Requests are counted in slots of this size; a request counts for 60 to 65 s. */
  slotMs: 5_000,
} as const;

export const KEY_CREATION_LIMIT = {
  defaultPerIpPerHour: 20,
  /**
   * Every attempt of the last hour is kept in one DynamoDB item, up to twice the limit before a
   * prune (store/key-creation-log.ts): at 10,000 that item stays under 200 KB, about half of
   * DynamoDB's 400 KB item limit, past which POST /keys from that address would fail outright.
   */
  maxPerIpPerHour: 10_000,
  windowMs: 60 * 60 * 1000,
} as const;

/**
 * The web ACL's per-address rate rule (lib/waf.ts): requests per address in AWS WAF's sliding
 * evaluation window, whatever their route or key. A default address may send the per-key limit
 * of two keys; fifteen such addresses at full rate would fill the stage's default throttle (50
 * rps, 15,000 requests in five minutes). WAF accepts limits from 10 to 2,000,000,000.
 */
const ADDRESS_RATE_WINDOW_SECONDS = 300;
export const ADDRESS_RATE_LIMIT = {
  windowSeconds: ADDRESS_RATE_WINDOW_SECONDS,
  defaultPerWindow: 2 * RATE_LIMIT.requests * ((ADDRESS_RATE_WINDOW_SECONDS * 1000) / RATE_LIMIT.windowMs),
  minPerWindow: 10,
  maxPerWindow: 2_000_000_000,
} as const;

/**
 * Bytes a key, and a client address, may send to POST /secrets and POST /requests/{id} in a sliding day, counted in hour
 * slots (rules/stored-bytes-window.ts). A person sharing secrets never meets either: a key's
 * 1 GiB is 200 of the largest files a day, an address's 4 GiB that for a small office behind one
 * NAT. An address is counted only for bodies above `addressCountedAbove`, the ones that are
 * stored in chunks and already take three calls or more, so that no request within the budget of
 * two DynamoDB calls pays a third. docs/security.md gives the bills these bound.
 */
export const STORED_BYTES_LIMIT = {
  windowMs: 24 * 60 * 60 * 1000,
  slotMs: 60 * 60 * 1000,
  defaultMiBPerKeyPerDay: 1024,
  defaultMiBPerAddressPerDay: 4096,
  /** Up to 1 TiB a day: far past any use, still a bound. */
  maxMiBPerDay: 1024 * 1024,
  addressCountedAbove: 300 * 1024,
} as const;

export const MIB = 1024 * 1024;

export const SECRET_TTLS = {
  '1h': 60 * 60 * 1000,
  '6h': 6 * 60 * 60 * 1000,
  '12h': 12 * 60 * 60 * 1000,
  '1d': 24 * 60 * 60 * 1000,
  '7d': 7 * 24 * 60 * 60 * 1000,
} as const;
export type SecretTtl = keyof typeof SECRET_TTLS;
/** The names of SECRET_TTLS, as the non-empty tuple an enum schema takes. */
export const SECRET_TTL_NAMES = Object.keys(SECRET_TTLS) as [SecretTtl, ...SecretTtl[]];

export const SECRET_TYPES = ['text', 'file'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

export const SECRET_DEFAULTS = { ttl: '1d', views: 1, type: 'text' } as const satisfies {
  ttl: SecretTtl;
  views: number;
  type: SecretType;
};

export const VIEWS_RANGE = { min: 1, max: 5 } as const;
export const FILENAME_MAX_LENGTH = 255;
export const MIMETYPE_MAX_LENGTH = 255;

/** 16 random bytes, base64url: 128 bits in 22 URL-safe characters. */
export const SECRET_ID_BYTES = 16;
export const SECRET_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** What clients accept as an id: the contract promises at least 128 bits, so longer ids than ours, up to this. */
export const SECRET_ID_MAX_LENGTH = 128;
/** The longest `url` POST /secrets answers: SITE_URL, a slash, an id. */
export const SECRET_URL_MAX_LENGTH = SITE_URL_MAX_LENGTH + 1 + SECRET_ID_MAX_LENGTH;

/**
 * DynamoDB items are capped at 400 KB. Data up to this size lives in the secret's head item
 * (one write, one read); larger data is split into chunk items of this size. A multiple of 4, so
 * that every chunk but the last is whole base64 and can be stored as binary.
 */
export const DATA_CHUNK_BYTES = 350_000;

/** Most chunk items a secret can have: its data is shorter than the largest body. */
export const MAX_CHUNKS_PER_SECRET = Math.ceil(MAX_BODY_BYTES / DATA_CHUNK_BYTES);

/** What a receipt (GET /secrets/{id}/status) says became of a secret (contract, "Receipts"). */
export const RECEIPT_STATES = ['active', 'used', 'revoked', 'expired', 'burned'] as const;
export type ReceiptState = (typeof RECEIPT_STATES)[number];
/** A receipt answers until this long after its secret's `expires`, the data long gone. */
export const RECEIPT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const WEBHOOK_EVENTS = ['secret.created', 'secret.viewed', 'secret.expired', 'secret.burned', 'request.fulfilled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event POST /keys/webhook/test sends: `data` is `{}`, as it concerns no secret. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/**
 * The passphrase gate (docs/api.md): a gated secret's claims need the proof in `proofHeader`; wrong
 * proofs are counted, and the one that leaves no attempt deletes the secret. Every 403 of a gated
 * secret tells how many remain in `attemptsLeftHeader`.
 */
export const GATE = {
  attempts: 5,
  proofHeader: 'x-secret-proof',
  attemptsLeftHeader: 'x-secret-attempts-left',
  /**
   * The gate (SHA-256 of the proof) and the proof alike: 32 bytes as unpadded base64url, in the
   * one encoding clients produce: the last character's two unused bits are zero.
   */
  digestPattern: /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/,
  digestLength: 43,
} as const;

/** Lambda timeout of every API function; local mode enforces the same. */
export const API_FUNCTION_TIMEOUT_MS = 10_000;

/**
 * What a route's DynamoDB calls may take together, counted from when its function started (not
 * from the request's time): its timeout less a second to shape and send the answer. A call still
 * unanswered then ends, and the route answers 503 (docs/retried-writes.md).
 */
export const API_STORE_BUDGET_MS = API_FUNCTION_TIMEOUT_MS - 1_000;

/** `retry-after` of a 503 when the data store did not answer: a brief outage or brownout. */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/**
 * GET /health reports the store unhealthy when one cheap read takes longer than this. A claim's
 * update, one repeat of it after a lost answer and the read that settles it must fit in its retry
 * window (CLAIM_RETRY_WINDOW_MS, 4 s) with a second to spare: 1 s each.
 */
export const SLOW_STORE_MS = 1_000;

/**
 * A claim's update, its repeats and the read that settles a lost answer all end this long after
 * the claim sent its update (its own time, not the request's: authentication has spent part of
 * that). The claim that took an inline secret's last view may have to repeat its update or read
 * the item to get the data back (its first attempt applied, its answer lost), so the stream
 * consumer deletes that secret only once this window and a margin have passed (see
 * stream/consumed-secrets.ts). The update gets all but the last second (store/settled-write.ts):
 * retries after a 500, a throttle or a dropped connection come within a few hundred ms, an attempt
 * that times out (after 2 s, store/sdk-settings.ts) leaves one more; the settling read the rest.
 */
export const CLAIM_RETRY_WINDOW_MS = 4_000;

/**
 * How long after a view its claim may still be reading a chunked secret's chunks: its function's
 * timeout (Lambda ends it then; the store budget ends its calls sooner) and a second for clocks.
 * Past this, `readers` counts no claim at work, only a sign-off the store never settled, so the
 * stream consumer deletes a consumed chunked secret by then whatever `readers` says.
 */
export const CLAIMANTS_DONE_MS = API_FUNCTION_TIMEOUT_MS + 1_000;

/**
 * The Idempotency-Key request header (IETF httpapi draft) on POST /secrets, GET and DELETE
 * /secrets/{id}: a repeat of a request with the same API key, route, id and key is answered as
 * the first was for `replayWindowMs` after the first's answer. The record of a first request is
 * kept that long after its start plus the longest a request can take (the function's timeout).
 * Until that timeout has passed without a sign of the first's work, a repeat may be one that
 * overtook a first still at work: it gets 409 instead, and `retry-after`.
 */
export const IDEMPOTENCY = {
  header: 'Idempotency-Key',
  pattern: /^[A-Za-z0-9_-]{16,64}$/,
  maxLength: 64,
  replayWindowMs: 60_000,
  recordMs: 60_000 + API_FUNCTION_TIMEOUT_MS,
  inFlightMs: API_FUNCTION_TIMEOUT_MS + 1_000,
  /** A 409's retry-after, in seconds. */
  inFlightRetryAfterSeconds: 1,
} as const;

/**
 * Ciphertext that the repeat of a last view may still need (an idempotent claim's, see
 * IDEMPOTENCY) is deleted this long after that view; only that repeat can read it meanwhile.
 */
export const REPLAY_RETENTION_MS = IDEMPOTENCY.replayWindowMs;
