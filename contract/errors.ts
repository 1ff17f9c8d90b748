import {
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  FILENAME_MAX_LENGTH,
  MAX_BODY_BYTES,
  MIMETYPE_MAX_LENGTH,
  SECRET_TTLS,
  SECRET_TYPES,
  VIEWS_RANGE,
  WEBHOOK_URL_MAX_LENGTH,
} from './limits';
import { REQUEST_NOTE_MAX_LENGTH, REQUEST_PUBLIC_KEY_BYTES, REQUEST_PUBLIC_KEY_LENGTH } from './requests';

/** The longest message an error body carries (docs/openapi.json's maxLength). */
export const ERROR_MESSAGE_MAX_LENGTH = 256;
/** An unknown field's name is the client's text: it is echoed only this far. */
const ECHOED_NAME_MAX_LENGTH = 64;
const echoed = (name: string): string =>
  [...name].length > ECHOED_NAME_MAX_LENGTH ? `${[...name].slice(0, ECHOED_NAME_MAX_LENGTH).join('')}…` : name;

/** The error messages clients see, defined once so handlers and tests agree. */
export const ERRORS = {
  missingCredentials: 'missing credentials: send Authorization: Bearer <API key>',
  invalidApiKey: 'invalid API key',
  expiredApiKey: 'API key expired',
  rateLimited: 'rate limit exceeded: 100 requests per minute per API key',
  /** POST /secrets and POST /requests/{id}: what they store counts against one day's bytes (STORED_BYTES_LIMIT). */
  storedBytesPerKeyLimited: 'this API key has sent its bytes for the day to store (secrets and answers to requests); try again later',
  storedBytesPerAddressLimited: 'this address has sent its bytes for the day to store (secrets and answers to requests); try again later',
  keyCreationLimited: 'too many API keys created from this address; try again later',
  /** The web ACL's per-address rate rule (lib/waf.ts), in front of the API. */
  addressRateLimited: 'too many requests from this address; try again in a few minutes',
  /** A request the web ACL's managed rules blocked (API Gateway's WAF_FILTERED response). */
  requestBlocked: 'request blocked by the web application firewall',
  /** createAccess=signed-in: a key minted without a sign-in token (docs/api.md, reveal-only keys). */
  revealOnlyKey:
    'this API key is reveal-only: it may claim secrets, answer requests and read or revoke itself; creating secrets or requests needs a signed-in key (POST /keys with Authorization: Bearer <token from signing in>)',
  /** createAccess=signed-in: POST /keys with a token the issuer did not sign for this deployment, and why. */
  invalidSignInToken: (reason: string) => `invalid sign-in token: ${reason}`,
  /** createAccess=signed-in: a valid token of an account the deployment's allow-lists leave out, and why. */
  accountNotAllowed: (reason: string) => `sign-in account not allowed: ${reason}`,
  /** createAccess=signed-in: the issuer's signing keys could not be fetched. */
  issuerUnavailable: 'sign-in issuer unavailable: its signing keys could not be fetched; try again shortly',
  secretNotFound: 'secret not found',
  routeNotFound: 'route not found',
  methodNotAllowed: 'method not allowed',
  malformedRequest: 'malformed HTTP request',
  headersTooLarge: 'request headers too large',
  payloadTooLarge: `request body exceeds ${MAX_BODY_BYTES} bytes (5 MiB)`,
  contentType: 'Content-Type must be application/json',
  invalidJson: 'request body must be valid JSON',
  notAnObject: 'request body must be a JSON object',
  bodyRequired: 'request body is required',
  internal: 'internal server error',
  storeUnavailable: 'data store unavailable',
  idempotencyKey: 'Idempotency-Key must be 16 to 64 characters of A-Z, a-z, 0-9, _ and -',
  idempotencyKeyReused: 'Idempotency-Key was already used with a different request body',
  idempotencyInFlight: 'a request with this Idempotency-Key is still being handled; retry shortly',
  unknownField: (field: string) => `unknown field: ${echoed(field)}`,
  data: 'data must be a non-empty string of standard base64',
  ttl: `ttl must be one of ${Object.keys(SECRET_TTLS).join(', ')}`,
  type: `type must be one of ${SECRET_TYPES.join(', ')}`,
  views: `views must be an integer from ${VIEWS_RANGE.min} to ${VIEWS_RANGE.max}`,
  filename: `filename must be a string of 1 to ${FILENAME_MAX_LENGTH} characters without control characters`,
  mimetype: `mimetype must be of the form type/subtype, at most ${MIMETYPE_MAX_LENGTH} characters`,
  fileFieldsNeedFileType: (field: string) => `${field} is only allowed with type "file"`,
  gate: 'gate must be 43 characters of unpadded base64url: the SHA-256 of the passphrase proof',
  passphraseRequired: 'passphrase required',
  wrongPassphrase: 'wrong passphrase',
  webhookRequired: 'webhook is required: an HTTPS URL, or "" to remove it',
  webhook: `webhook must be an absolute https://host/ URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters, without user info, port 0, whitespace or control characters`,
  requestNotFound: 'request not found',
  requestFulfilled: 'request already fulfilled',
  publicKey: `publicKey must be a P-256 public key: the uncompressed point (${REQUEST_PUBLIC_KEY_BYTES} bytes) in unpadded base64url (${REQUEST_PUBLIC_KEY_LENGTH} characters)`,
  note: `note must be a string of at most ${REQUEST_NOTE_MAX_LENGTH} characters without control characters other than tab and newline`,
  noWebhook: 'this key has no webhook: set one with PATCH /keys first',
  webhookHostNotPublic: 'webhook host must be a public address (not loopback, private, link-local or reserved)',
} as const;

export const API_KEY_FORMAT_DESCRIPTION = `${API_KEY_PREFIX} followed by ${API_KEY_RANDOM_LENGTH} alphanumeric characters`;
