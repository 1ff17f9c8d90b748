import { MAX_BODY_BYTES, type SecretTtl } from '../../contract/limits';
import { describeIssue } from '../../contract/describe-issue';
import {
  claimSecretResponse,
  createRequestBody,
  createRequestResponse,
  fulfilRequestBody,
  fulfilRequestResponse,
  requestDetailsResponse,
  requestStatusResponse,
  type FulfilRequestBody,
} from '../../contract/schemas';
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from './base64';
import { InputError, LinkError, PayloadTooLargeError, SecretGoneError, type OnetimeError } from './errors';
import { fitFilename } from './filename';
import {
  REQUEST_DATA_OVERHEAD,
  answerSealer,
  fingerprint,
  generateRequestKeyPair,
  importPrivateKey,
  openAnswer,
  privateScalar,
  rawPublicKey,
} from './request-envelope';
import { makeReceiveLink, makeRequestLink, parseReceiveLink, parseRequestLink } from './request-link';
import type { Transport } from './transport';
import { decodeUtf8, utf8 } from './utf8';

/** Secret requests on the client side; the sender encrypts only to a public key matching the link's fingerprint. */

export interface RequestOptions {
  ttl?: SecretTtl;
  /** Shown to whoever holds the request link: public, not secret. */
  note?: string;
}

export interface Requested {
  id: string;
  /** `{site_url}/r/<id>#<fingerprint>`: send this to whoever should answer. */
  requestLink: string;
  /** `{site_url}/r/<id>/receive#<private key>[.<API key>]`: keep this; it is the only way to the answer. */
  receiveLink: string;
  expires: number;
}

export interface OpenRequest {
  note: string | undefined;
  expires: number;
  /** The requester's public key, checked against the link's fingerprint. */
  publicKey: Uint8Array;
}

export interface RequestStatus {
  state: 'open' | 'fulfilled' | 'expired';
  note: string | undefined;
  expires: number;
  fulfilledAt: number | undefined;
}

export type Received =
  | { state: 'open' | 'expired'; note: string | undefined; expires: number }
  | {
      state: 'fulfilled';
      note: string | undefined;
      content: { type: 'text'; text: string } | { type: 'file'; name: string | undefined; mimetype: string; bytes: Uint8Array };
    };

export type AnswerContent = string | { name: string; bytes: Uint8Array; mimetype?: string };

const OCTET_STREAM = 'application/octet-stream';

/** A 404 or 409 of a request route, told in the request's own words. */
function requestGone(error: unknown): never {
  if (error instanceof SecretGoneError) throw new SecretGoneError('the request does not exist or has expired');
  if ((error as OnetimeError).kind === 'service' && (error as { status?: number }).status === 409) {
    throw new SecretGoneError('the request was already fulfilled');
  }
  throw error;
}

export async function createRequest(transport: Transport, apiKey: string, embedKey: boolean, options: RequestOptions): Promise<Requested> {
  const body = { ...options };
  const pair = await generateRequestKeyPair();
  const publicKey = await rawPublicKey(pair.publicKey);
  const checked = createRequestBody.safeParse({ ...body, publicKey: toBase64Url(publicKey) });
  if (!checked.success) throw new InputError(describeIssue(checked.error));
  const created = await transport.call({
    route: 'requests-create',
    apiKey,
    body: { publicKey: toBase64Url(publicKey), ...body },
    schema: createRequestResponse,
  });
  return {
    id: created.id,
    requestLink: makeRequestLink(created.url, await fingerprint(publicKey)),
    receiveLink: makeReceiveLink(created.url, await privateScalar(pair.privateKey), embedKey ? apiKey : undefined),
    expires: created.expires,
  };
}

/** The request's note and public key, refused (LinkError mismatch) when the key does not match the link. */
export async function openRequest(transport: Transport, apiKey: string, requestLink: string): Promise<OpenRequest> {
  const { id, fingerprint: expected } = parseRequestLink(requestLink);
  const details = await transport.call({ route: 'requests-get', id, apiKey, schema: requestDetailsResponse }).catch(requestGone);
  const publicKey = fromBase64Url(details.publicKey);
  if (publicKey === undefined || (await fingerprint(publicKey)) !== expected) throw LinkError.keyMismatch();
  return { note: details.note ?? undefined, expires: details.expires, publicKey };
}

/** The most content bytes whose version-3 envelope fits beside `otherBytes` of JSON in one request body. */
const maxAnswerBytes = (otherBytes: number): number => 3 * Math.floor((MAX_BODY_BYTES - otherBytes) / 4) - REQUEST_DATA_OVERHEAD;

/** Encrypts `content` to the request's checked public key and answers it; nothing is sent when the key does not match. */
export async function fulfilRequest(transport: Transport, apiKey: string, requestLink: string, content: AnswerContent): Promise<void> {
  const { id } = parseRequestLink(requestLink);
  const { publicKey } = await openRequest(transport, apiKey, requestLink);
  const seal = await answerSealer(publicKey);
  const isText = typeof content === 'string';
  const bytes = isText ? utf8.encode(content) : content.bytes;
  const fields: Omit<FulfilRequestBody, 'data'> = isText
    ? { type: 'text' }
    : {
        type: 'file',
        filename: toBase64Url(await seal.filename(utf8.encode(fitFilename(content.name)))),
        mimetype: content.mimetype || OCTET_STREAM,
      };
  const fits = maxAnswerBytes(utf8.encode(JSON.stringify({ data: '', ...fields })).length);
  if (bytes.length > fits) {
    throw new PayloadTooLargeError(
      `too large: ${bytes.length} bytes; at most ${fits} fit in the service's request limit of ${MAX_BODY_BYTES} bytes (5 MiB)`,
      fits,
    );
  }
  const body = { data: toBase64(await seal.data(bytes)), ...fields };
  const checked = fulfilRequestBody.safeParse(body);
  if (!checked.success) throw new InputError(describeIssue(checked.error));
  await transport.call({ route: 'requests-fulfil', id, apiKey, body, schema: fulfilRequestResponse }).catch(requestGone);
}

/** The API key a receive link names, or the client's own. */
export function receiveKey(receiveLink: string, ownKey: string | undefined): string {
  const { apiKey } = parseReceiveLink(receiveLink);
  const key = apiKey ?? ownKey;
  if (key === undefined) throw new InputError("this receive link carries no API key: use the requester's key (ONETIME_API_KEY)");
  return key;
}

export async function requestStatus(transport: Transport, apiKey: string, receiveLink: string): Promise<RequestStatus & { publicKey: string }> {
  const { id } = parseReceiveLink(receiveLink);
  const status = await transport.call({ route: 'requests-status', id, apiKey, schema: requestStatusResponse }).catch(requestGone);
  return {
    state: status.state,
    note: status.note ?? undefined,
    expires: status.expires,
    fulfilledAt: status.fulfilledAt ?? undefined,
    publicKey: status.publicKey,
  };
}

/** The state; once fulfilled, the answer, claimed (its one view) and decrypted. */
export async function receive(transport: Transport, apiKey: string, receiveLink: string): Promise<Received> {
  const { id, scalar } = parseReceiveLink(receiveLink);
  const status = await requestStatus(transport, apiKey, receiveLink);
  if (status.state !== 'fulfilled') return { state: status.state, note: status.note, expires: status.expires };
  const recipient = fromBase64Url(status.publicKey);
  if (recipient === undefined) throw LinkError.undecryptable();
  let privateKey;
  try {
    privateKey = await importPrivateKey(scalar, recipient);
  } catch {
    throw LinkError.undecryptable();
  }
  const claimed = await transport.call({ route: 'secrets-claim', id, apiKey, schema: claimSecretResponse });
  const opened = await openAnswer(privateKey, recipient, fromBase64(claimed.data));
  if (claimed.type === 'text') return { state: 'fulfilled', note: status.note, content: { type: 'text', text: textOf(opened.data) } };
  const sealedName = claimed.filename === null ? undefined : fromBase64Url(claimed.filename);
  if (claimed.filename !== null && sealedName === undefined) throw LinkError.undecryptable();
  return {
    state: 'fulfilled',
    note: status.note,
    content: {
      type: 'file',
      name: sealedName === undefined ? undefined : textOf(await opened.filename(sealedName)),
      mimetype: claimed.mimetype ?? OCTET_STREAM,
      bytes: opened.data,
    },
  };
}

function textOf(bytes: Uint8Array): string {
  const text = decodeUtf8(bytes);
  if (text === undefined) throw LinkError.undecryptable();
  return text;
}
