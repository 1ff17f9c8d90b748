import { secretId } from '../../contract/schemas';
import { fromBase64Url, toBase64Url } from './base64';
import { KEY_BYTES } from './envelope';
import { LinkError } from './errors';

/** Links are `{site_url}/<id>#<k>` or, gated, `#p.<k>` (docs/client.md §1); requests are built from the id alone. */

const KEY_LENGTH = 43;
export const GATED_MARKER = 'p.';

export const makeLink = (url: string, key: Uint8Array, gated = false): string => `${url}#${gated ? GATED_MARKER : ''}${toBase64Url(key)}`;

export interface ParsedLink {
  id: string;
  key: Uint8Array;
  gated: boolean;
}

/** The last segment of the link's path: the secret's id. */
function idFromUrl(url: URL): string {
  const id = url.pathname.split('/').pop() ?? '';
  if (!secretId.safeParse(id).success) throw LinkError.malformed('it does not end in a secret id');
  return id;
}

/** The id and key of a link; LinkError (before any request) when either is missing or malformed. */
export function parseLink(link: string): ParsedLink {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    throw LinkError.malformed('not a URL');
  }
  const gated = url.hash.startsWith(`#${GATED_MARKER}`);
  const fragment = url.hash.slice(gated ? 1 + GATED_MARKER.length : 1);
  if (fragment === '') throw LinkError.malformed('the key after "#" is missing (was the end of the link cut off?)');
  const key = fromBase64Url(fragment);
  // The round trip refuses non-canonical encodings, whose unused bits a decoder would drop silently.
  if (fragment.length !== KEY_LENGTH || key?.length !== KEY_BYTES || toBase64Url(key) !== fragment) {
    throw LinkError.malformed(`the key after "#" must be ${KEY_LENGTH} characters of base64url`);
  }
  return { id: idFromUrl(url), key, gated };
}

/** A secret's id, given a link (with or without its key) or the id itself. */
export function secretIdOf(linkOrId: string): string {
  const candidate = linkOrId.trim();
  if (secretId.safeParse(candidate).success) return candidate;
  try {
    return idFromUrl(new URL(candidate));
  } catch (error) {
    throw error instanceof LinkError ? error : LinkError.malformed('neither a link nor a secret id');
  }
}
