import { SECRET_ID_MAX_LENGTH, SITE_URL_MAX_LENGTH } from './limits';

/** Secret requests (docs/api.md, "Secret requests"): the numbers and names they promise. */

/** A P-256 public key as the API takes it: the uncompressed point (0x04 ‖ x ‖ y), 65 bytes. */
export const REQUEST_PUBLIC_KEY_BYTES = 65;
/** ... in unpadded base64url: 87 characters. */
export const REQUEST_PUBLIC_KEY_LENGTH = 87;
export const REQUEST_PUBLIC_KEY_PATTERN = /^[A-Za-z0-9_-]{87}$/;

/** The note the requester leaves for the sender: public to whoever holds the request link. */
export const REQUEST_NOTE_MAX_LENGTH = 500;

/** What a request's status says: `open` to be fulfilled, `fulfilled` its answer waiting, `expired` either run out. */
export const REQUEST_STATES = ['open', 'fulfilled', 'expired'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

/** Where the pages serve the sender's and the requester's pages of a request: `{site}/r/<id>` and `{site}/r/<id>/receive`. */
export const REQUEST_PAGE_PREFIX = '/r/';
export const REQUEST_RECEIVE_SUFFIX = '/receive';

/** The longest `url` POST /requests answers: SITE_URL, the prefix, an id. */
export const REQUEST_URL_MAX_LENGTH = SITE_URL_MAX_LENGTH + REQUEST_PAGE_PREFIX.length + SECRET_ID_MAX_LENGTH;
