import { GATE, MAX_BODY_BYTES, SECRET_DEFAULTS, SECRET_TTLS } from '../../contract/limits';
import { describeIssue } from '../../contract/describe-issue';
import {
  claimSecretResponse,
  createKeyResponse,
  createSecretBody,
  createSecretResponse,
  deleteResponse,
  getKeyResponse,
  secretStatusResponse,
  updateKeyResponse,
  webhookTestResponse,
  type CreateKeyResponse,
  type CreateSecretRequest,
  type GetKeyResponse,
  type SecretStatusResponse,
} from '../../contract/schemas';
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from './base64';
import { ENVELOPE_OVERHEAD, KEY_BYTES, importKey, open, randomBytes, seal, type AesKey, type EnvelopeVersion } from './envelope';
import { InputError, LinkError, PayloadTooLargeError } from './errors';
import { fitFilename } from './filename';
import { makeLink, parseLink, secretIdOf } from './link';
import { derivePassphraseKeys, gateOf } from './passphrase';
import {
  createRequest,
  fulfilRequest,
  openRequest,
  receive,
  receiveKey,
  requestStatus,
  type AnswerContent,
  type OpenRequest,
  type Received,
  type RequestOptions,
  type RequestStatus,
  type Requested,
} from './requests';
import { Transport, type TransportOptions } from './transport';
import { decodeUtf8, utf8 } from './utf8';

export interface ClientOptions extends TransportOptions {
  /** Without one, `share` and `reveal` mint a key and keep it in memory for this client's life. */
  apiKey?: string;
}

export type ShareOptions = Pick<CreateSecretRequest, 'ttl' | 'views'> & {
  /** Gates the secret (deleted after 5 wrong ones); never sent. Normalized to NFC, not trimmed; empty is refused. */
  passphrase?: string;
};

export interface RevealOptions {
  /** Required for a gated link (`#p.`), ignored otherwise. */
  passphrase?: string;
}

/** The key that seals a secret's envelopes, their version, and what a gated secret sends. */
interface Sealing {
  key: AesKey;
  version: EnvelopeVersion;
  /** base64url of the proof, for claims. */
  proof?: string;
}

/** A link's sealing: version 1 with its key; version 2, gated, with a key derived from it and the passphrase. */
async function sealingOf(linkKey: Uint8Array, passphrase: string | undefined): Promise<Sealing & { gate?: string }> {
  if (passphrase === undefined) return { key: await importKey(linkKey), version: 1 };
  const derived = await derivePassphraseKeys(linkKey, passphrase);
  return {
    key: await importKey(derived.key),
    version: 2,
    proof: toBase64Url(derived.proof),
    gate: toBase64Url(await gateOf(derived.proof)),
  };
}

export interface FileContent {
  name: string;
  bytes: Uint8Array;
  /** `type/subtype`; application/octet-stream when absent. */
  mimetype?: string;
}

export interface Shared {
  id: string;
  url: string;
  /** `url#k`: the only way to the content. */
  link: string;
  /** When the ttl runs out (ms since the epoch), counted from when the request was sent. */
  expires: number;
}

export type Revealed =
  | { type: 'text'; text: string; remaining: number }
  | { type: 'file'; name: string | undefined; mimetype: string; bytes: Uint8Array; remaining: number };

/** A secret's receipt (docs/api.md, "Receipts"); times in ms since the epoch, `viewed` one per view taken. */
export type SecretStatus = SecretStatusResponse;

export const OCTET_STREAM = 'application/octet-stream';

/** The most content bytes whose envelope's base64 fits beside `otherBytes` of JSON in one request body. */
const maxContentBytes = (otherBytes: number): number => 3 * Math.floor((MAX_BODY_BYTES - otherBytes) / 4) - ENVELOPE_OVERHEAD;

export class OnetimeClient {
  private readonly transport: Transport;
  private readonly givenKey: string | undefined;
  private mintedKey: Promise<string> | undefined;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    this.givenKey = options.apiKey;
  }

  /** Whether `share` or `reveal` had to mint an API key. */
  get mintedApiKey(): boolean {
    return this.mintedKey !== undefined;
  }

  /** Encrypts `content` (text, or a file) under a fresh key and stores it; the link carries the key. */
  async share(content: string | FileContent, { passphrase, ...options }: ShareOptions = {}): Promise<Shared> {
    const isText = typeof content === 'string';
    const bytes = isText ? utf8.encode(content) : content.bytes;
    const rawKey = randomBytes(KEY_BYTES);
    const { key, version, gate } = await sealingOf(rawKey, passphrase);
    const gated = gate === undefined ? {} : { gate };

    const fields: Omit<CreateSecretRequest, 'data'> = isText
      ? { type: 'text', ...options, ...gated }
      : {
          type: 'file',
          ...options,
          ...gated,
          filename: toBase64Url(await seal(key, utf8.encode(fitFilename(content.name)), 'filename', version)),
          mimetype: content.mimetype || OCTET_STREAM,
        };
    // Measured before encrypting: nothing is uploaded, nor much work done, for content that cannot fit.
    const otherBytes = utf8.encode(JSON.stringify({ data: '', ...fields })).length;
    const fits = maxContentBytes(otherBytes);
    if (bytes.length > fits) {
      throw new PayloadTooLargeError(
        `too large: ${bytes.length} bytes; at most ${fits} fit in the service's request limit of ${MAX_BODY_BYTES} bytes (5 MiB)`,
        fits,
      );
    }
    const body = { data: toBase64(await seal(key, bytes, 'data', version)), ...fields };
    const checked = createSecretBody.safeParse(body);
    if (!checked.success) throw new InputError(describeIssue(checked.error));

    const apiKey = await this.keyForSecrets();
    const sentAt = Date.now();
    const created = await this.transport.call({ route: 'secrets-create', apiKey, body, schema: createSecretResponse });
    return {
      id: created.id,
      url: created.url,
      link: makeLink(created.url, rawKey, gate !== undefined),
      expires: sentAt + SECRET_TTLS[checked.data.ttl ?? SECRET_DEFAULTS.ttl],
    };
  }

  /** Claims one view and decrypts it; a wrong passphrase uses no view (PassphraseError tells the attempts left). */
  async reveal(link: string, options: RevealOptions = {}): Promise<Revealed> {
    const { id, key: rawKey, gated } = parseLink(link);
    if (gated && options.passphrase === undefined) throw new InputError('this link needs a passphrase');
    const sealing = await sealingOf(rawKey, gated ? options.passphrase : undefined);
    const { key, version } = sealing;
    const apiKey = await this.keyForSecrets();
    const headers: Record<string, string> = sealing.proof === undefined ? {} : { [GATE.proofHeader]: sealing.proof };
    const claimed = await this.transport.call({ route: 'secrets-claim', id, apiKey, headers, schema: claimSecretResponse });
    const content = await open(key, fromBase64(claimed.data), 'data', version);
    if (claimed.type === 'text') return { type: 'text', text: decodeText(content), remaining: claimed.remaining };
    return {
      type: 'file',
      name: claimed.filename === null ? undefined : await openFilename(key, claimed.filename, version),
      mimetype: claimed.mimetype ?? OCTET_STREAM,
      bytes: content,
      remaining: claimed.remaining,
    };
  }

  /** Deletes a secret before it is used up; only the key that created it may. */
  async revoke(linkOrId: string): Promise<void> {
    const id = secretIdOf(linkOrId);
    await this.transport.call({ route: 'secrets-revoke', id, apiKey: this.requireKey(), schema: deleteResponse });
  }

  /** What became of a secret this client's key created, until 7 days after it expires; uses no view. */
  async status(linkOrId: string): Promise<SecretStatus> {
    const id = secretIdOf(linkOrId);
    return this.transport.call({ route: 'secrets-status', id, apiKey: this.requireKey(), schema: secretStatusResponse });
  }

  /** Asks for a secret (docs/client.md, "Secret requests"); a minted API key goes into the receive link. */
  async request(options: RequestOptions = {}): Promise<Requested> {
    return createRequest(this.transport, await this.keyForSecrets(), this.givenKey === undefined, options);
  }

  /** A request's note and checked public key, for a sender to see before answering. */
  async openRequest(requestLink: string): Promise<OpenRequest> {
    return openRequest(this.transport, await this.keyForSecrets(), requestLink);
  }

  /** Answers a request once, encrypted to its public key after checking it against the link's fingerprint. */
  async fulfil(requestLink: string, content: AnswerContent): Promise<void> {
    return fulfilRequest(this.transport, await this.keyForSecrets(), requestLink, content);
  }

  /** The state of one's own request, from its receive link; consumes nothing. */
  async requestStatus(receiveLink: string): Promise<RequestStatus> {
    const { publicKey: _publicKey, ...status } = await requestStatus(this.transport, receiveKey(receiveLink, this.givenKey), receiveLink);
    return status;
  }

  /** The state of one's own request; once fulfilled, its answer, read (its one view) and decrypted. */
  async receive(receiveLink: string): Promise<Received> {
    return receive(this.transport, receiveKey(receiveLink, this.givenKey), receiveLink);
  }

  /** A new API key and webhook secret; on a signed-in deployment, `signInToken` makes it a full key. */
  async createKey({ signInToken, ...body }: { webhook?: string; signInToken?: string } = {}): Promise<CreateKeyResponse> {
    return this.transport.call({
      route: 'keys-create',
      body,
      schema: createKeyResponse,
      ...(signInToken === undefined ? {} : { headers: { authorization: `Bearer ${signInToken}` } }),
    });
  }

  async showKey(): Promise<GetKeyResponse> {
    return this.transport.call({ route: 'keys-get', apiKey: this.requireKey(), schema: getKeyResponse });
  }

  /** An https URL sets the key's webhook; "" removes it. */
  async updateWebhook(webhook: string): Promise<void> {
    await this.transport.call({ route: 'keys-update', apiKey: this.requireKey(), body: { webhook }, schema: updateKeyResponse });
  }

  /** Queues a webhook.test event to the key's webhook; resolves to its event id. */
  async testWebhook(): Promise<string> {
    return (await this.transport.call({ route: 'keys-webhook-test', apiKey: this.requireKey(), schema: webhookTestResponse })).eventId;
  }

  async revokeKey(): Promise<void> {
    await this.transport.call({ route: 'keys-delete', apiKey: this.requireKey(), schema: deleteResponse });
  }

  private keyForSecrets(): Promise<string> {
    if (this.givenKey !== undefined) return Promise.resolve(this.givenKey);
    this.mintedKey ??= this.createKey().then((created) => created.key);
    return this.mintedKey;
  }

  private requireKey(): string {
    if (this.givenKey === undefined) throw new InputError('an API key is required for this');
    return this.givenKey;
  }
}

/** Text that is not UTF-8 did not come from a conforming client: damaged, as far as the reader can tell. */
function decodeText(content: Uint8Array): string {
  const text = decodeUtf8(content);
  if (text === undefined) throw LinkError.undecryptable();
  return text;
}

async function openFilename(key: AesKey, filename: string, version: EnvelopeVersion): Promise<string> {
  const envelope = fromBase64Url(filename);
  if (envelope === undefined) throw LinkError.undecryptable();
  return decodeText(await open(key, envelope, 'filename', version));
}
