import { API_KEY_PATTERN } from '../../contract/limits';
import { REQUEST_PAGE_PREFIX, REQUEST_RECEIVE_SUFFIX } from '../../contract/requests';
import { secretId } from '../../contract/schemas';
import { fromBase64Url, toBase64Url } from './base64';
import { LinkError } from './errors';

/** The request link `…/r/<id>#<fingerprint>` and receive link `…/r/<id>/receive#<d>[.<API key>]` (docs/client.md §7). */

const SCALAR_LENGTH = 43;
const FINGERPRINT_LENGTH = 43;

export const makeRequestLink = (url: string, fingerprint: string): string => `${url}#${fingerprint}`;

export const makeReceiveLink = (url: string, scalar: Uint8Array, apiKey?: string): string =>
  `${url}${REQUEST_RECEIVE_SUFFIX}#${toBase64Url(scalar)}${apiKey !== undefined ? `.${apiKey}` : ''}`;

function parseUrl(link: string): URL {
  try {
    return new URL(link.trim());
  } catch {
    throw LinkError.malformed('not a URL');
  }
}

/** The request id of a path `…/r/<id>` (request link) or `…/r/<id>/receive` (receive link). */
function requestIdOf(url: URL, receive: boolean): string {
  const path = url.pathname.replace(/\/+$/, '');
  const suffix = receive ? REQUEST_RECEIVE_SUFFIX : '';
  if (!path.endsWith(suffix)) throw LinkError.malformed(receive ? 'a receive link ends in /receive' : 'not a request link');
  const rest = path.slice(0, path.length - suffix.length);
  const at = rest.lastIndexOf(REQUEST_PAGE_PREFIX);
  const id = at < 0 ? '' : rest.slice(at + REQUEST_PAGE_PREFIX.length);
  if (!secretId.safeParse(id).success) throw LinkError.malformed(`the path must end in ${REQUEST_PAGE_PREFIX}<request id>${suffix}`);
  return id;
}

/** Canonical unpadded base64url of `length` characters, or undefined. */
function base64UrlOf(text: string, length: number): Uint8Array | undefined {
  const bytes = fromBase64Url(text);
  return text.length === length && bytes !== undefined && toBase64Url(bytes) === text ? bytes : undefined;
}

export function parseRequestLink(link: string): { id: string; fingerprint: string } {
  const url = parseUrl(link);
  const fingerprint = url.hash.slice(1);
  if (fingerprint === '') throw LinkError.malformed('the fingerprint after "#" is missing (was the end of the link cut off?)');
  if (!base64UrlOf(fingerprint, FINGERPRINT_LENGTH))
    throw LinkError.malformed(`the fingerprint after "#" must be ${FINGERPRINT_LENGTH} characters of base64url`);
  return { id: requestIdOf(url, false), fingerprint };
}

export function parseReceiveLink(link: string): { id: string; scalar: Uint8Array; apiKey?: string } {
  const url = parseUrl(link);
  const [encoded = '', apiKey, ...extra] = url.hash.slice(1).split('.');
  if (encoded === '') throw LinkError.malformed('the private key after "#" is missing (was the end of the link cut off?)');
  const scalar = base64UrlOf(encoded, SCALAR_LENGTH);
  if (!scalar) throw LinkError.malformed(`the private key after "#" must be ${SCALAR_LENGTH} characters of base64url`);
  if (extra.length > 0 || (apiKey !== undefined && !API_KEY_PATTERN.test(apiKey)))
    throw LinkError.malformed('the API key after the private key is malformed');
  return { id: requestIdOf(url, true), scalar, ...(apiKey !== undefined ? { apiKey } : {}) };
}
