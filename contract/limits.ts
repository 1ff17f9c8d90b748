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
/** An expired key's item is kept this long, so that its owner is told "API key expired" rather than "invalid". */
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
  /** The hour's attempts live in one item (store/key-creation-log.ts), which must stay under DynamoDB's 400 KB. */
  maxPerIpPerHour: 10_000,
  windowMs: 60 * 60 * 1000,
} as const;

/** The web ACL's per-address rate rule (lib/waf.ts): by default, two keys' worth; WAF's own bounds. */
const ADDRESS_RATE_WINDOW_SECONDS = 300;
export const ADDRESS_RATE_LIMIT = {
  windowSeconds: ADDRESS_RATE_WINDOW_SECONDS,
  defaultPerWindow: 2 * RATE_LIMIT.requests * ((ADDRESS_RATE_WINDOW_SECONDS * 1000) / RATE_LIMIT.windowMs),
  minPerWindow: 10,
  maxPerWindow: 2_000_000_000,
} as const;

/** Bytes a key and an address may store in a sliding day (rules/stored-bytes-window.ts, docs/security.md). */
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
 * Data up to this size lives in the head item, larger in chunk items: refused writes are evaluated
 * on the head, so a small one keeps their time and cost the same whatever a secret's size. 16 KiB
 * keeps keys and certificates one write; timing refused writes told 64 KiB heads from none, not these.
 */
export const INLINE_DATA_MAX_BYTES = 16 * 1024;
/** Chunk items hold this much data each (400 KB cap); a multiple of 4 for base64. */
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

/** The passphrase gate (docs/api.md): wrong proofs are counted, and the last attempt deletes the secret. */
export const GATE = {
  attempts: 5,
  proofHeader: 'x-secret-proof',
  attemptsLeftHeader: 'x-secret-attempts-left',
  /** The gate and the proof alike: 32 bytes as unpadded base64url, its two unused bits zero. */
  digestPattern: /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/,
  digestLength: 43,
} as const;

/** Lambda timeout of every API function; local mode enforces the same. */
export const API_FUNCTION_TIMEOUT_MS = 10_000;

/** What a route's DynamoDB calls may take together from its function's start; then 503 (docs/retried-writes.md). */
export const API_STORE_BUDGET_MS = API_FUNCTION_TIMEOUT_MS - 1_000;

/** `retry-after` of a 503 when the data store did not answer: a brief outage or brownout. */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** GET /health reports the store unhealthy past this: three calls must fit a claim's retry window. */
export const SLOW_STORE_MS = 1_000;

/** A claim's update, repeats and settling read end this long after it; the last view is deleted only after it. */
export const CLAIM_RETRY_WINDOW_MS = 4_000;

/** How long after a view its claim may still read chunks; past it the secret is deleted whatever `readers` says. */
export const CLAIMANTS_DONE_MS = API_FUNCTION_TIMEOUT_MS + 1_000;

/** The Idempotency-Key header: a repeat is answered as its first was; one that may overtake its first gets 409. */
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

/** Ciphertext a keyed last view's repeat may still need is deleted this long after that view. */
export const REPLAY_RETENTION_MS = IDEMPOTENCY.replayWindowMs;
