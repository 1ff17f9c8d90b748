/** The browser-safe core: WebCrypto and fetch only, no `node:` imports (the browser build fails on any). */
export {
  OnetimeClient,
  type ClientOptions,
  type FileContent,
  type Revealed,
  type RevealOptions,
  type SecretStatus,
  type ShareOptions,
  type Shared,
} from './client';
export {
  InputError,
  LinkError,
  NetworkError,
  OnetimeError,
  PassphraseError,
  PayloadTooLargeError,
  RateLimitedError,
  SecretGoneError,
  ServiceError,
  type OnetimeErrorKind,
} from './errors';
export { AAD, AAD_V2, ENVELOPE_VERSION } from './envelope';
export { PBKDF2_ITERATIONS } from './passphrase';
export { REQUEST_AAD, REQUEST_ENVELOPE_VERSION } from './request-envelope';
export { parseReceiveLink, parseRequestLink } from './request-link';
export type { AnswerContent, OpenRequest, Received, RequestOptions, RequestStatus, Requested } from './requests';
export { safeName } from './filename';
export { makeLink, parseLink, secretIdOf, type ParsedLink } from './link';
export { WEBHOOK_TOLERANCE_MS, verifyWebhook, type VerifyOptions } from './webhook';
