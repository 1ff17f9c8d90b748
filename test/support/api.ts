import { createECDH, randomInt } from 'node:crypto';
import { request } from 'node:http';
import { testEnv } from './environment';

/** A small HTTP client for the local server: raw control over body, headers and source address. */

export interface ApiResponse<TBody = Record<string, unknown>> {
  status: number;
  headers: Record<string, string>;
  body: TBody;
  raw: string;
}

export interface ApiRequest {
  key?: string;
  /** Sent as JSON with Content-Type application/json unless `rawBody` is given. */
  json?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Loopback source address to send from (127.x.y.z), e.g. to give key creation its own client IP. */
  localAddress?: string;
  /** Another local server than the shared one. */
  baseUrl?: string;
}

export function api<TBody = Record<string, unknown>>(method: string, path: string, options: ApiRequest = {}): Promise<ApiResponse<TBody>> {
  const url = new URL((options.baseUrl ?? testEnv('baseUrl')) + path);
  const body = options.rawBody !== undefined ? options.rawBody : options.json !== undefined ? JSON.stringify(options.json) : undefined;
  const headers: Record<string, string | number> = {
    ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
    ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const responseHeaders: Record<string, string> = {};
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(raw);
          } catch {
            parsed = undefined;
          }
          resolve({ status: incoming.statusCode ?? 0, headers: responseHeaders, body: parsed as TBody, raw });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A random loopback address in 127.(base + worker).x.y: Jest workers get disjoint second octets. */
function loopbackAddress(base: number): string {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  return `127.${base + worker}.${randomInt(256)}.${1 + randomInt(254)}`;
}

/**
 * A random loopback source address, so that tests which need many keys do not share the per-IP
 * key-creation limit.
 */
export const freshClientAddress = (): string => loopbackAddress(100);

/**
 * An address for a test that uses up its hour of key creations on the shared server, from a range
 * freshClientAddress() never draws from. With one range for both, one of a run's many fresh
 * addresses could land on a used-up one, and once did: a round-trip test's POST /keys got 429
 * (docs/testing.md, "Known flakes").
 */
export const usedUpClientAddress = (): string => loopbackAddress(200);

export interface CreatedKey {
  key: string;
  expires: number;
  webhookSecret: string;
}

/** `baseUrl`: another local server than the shared one; `headers`: a signed-in client's token, say. */
export async function createKey(json?: { webhook?: string }, baseUrl?: string, headers: Record<string, string> = {}): Promise<CreatedKey> {
  const response = await api<CreatedKey>('POST', '/keys', {
    localAddress: freshClientAddress(),
    headers,
    ...(json ? { json } : {}),
    ...(baseUrl ? { baseUrl } : {}),
  });
  if (response.status !== 201) throw new Error(`POST /keys answered ${response.status}: ${response.raw}`);
  return response.body;
}

export interface CreatedSecret {
  id: string;
  url: string;
}

export async function createSecret(key: string, json: Record<string, unknown>, baseUrl?: string): Promise<CreatedSecret> {
  const response = await api<CreatedSecret>('POST', '/secrets', { key, json, ...(baseUrl ? { baseUrl } : {}) });
  if (response.status !== 201) throw new Error(`POST /secrets answered ${response.status}: ${response.raw}`);
  return response.body;
}

/** Base64 of `bytes` pseudo-random bytes: distinct content, so a mix-up of chunks would show. */
export function base64Of(bytes: number, seed = 1): string {
  const buffer = Buffer.alloc(bytes);
  let state = seed;
  for (let i = 0; i < bytes; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    buffer[i] = state >> 16;
  }
  return buffer.toString('base64');
}

/**
 * Base64 data that makes the body `{"data": ..., ...otherFields}` as close to `bodyBytes` as
 * base64 allows, without going over.
 */
export function dataFilling(bodyBytes: number, seed = 7, otherFields: Record<string, unknown> = {}): string {
  const overhead = JSON.stringify({ data: '', ...otherFields }).length;
  const length = Math.floor((bodyBytes - overhead) / 4) * 4;
  return base64Of((length / 4) * 3, seed);
}

/** A fresh P-256 public key as POST /requests takes it: the uncompressed point, unpadded base64url. */
export function requestPublicKey(): string {
  const ecdh = createECDH('prime256v1');
  return ecdh.generateKeys().toString('base64url');
}

interface CreatedRequest {
  id: string;
  url: string;
  expires: number;
}

export async function createRequest(key: string, json: Record<string, unknown> = {}, baseUrl?: string): Promise<CreatedRequest> {
  const response = await api<CreatedRequest>('POST', '/requests', {
    key,
    json: { publicKey: requestPublicKey(), ...json },
    ...(baseUrl ? { baseUrl } : {}),
  });
  if (response.status !== 201) throw new Error(`POST /requests answered ${response.status}: ${response.raw}`);
  return response.body;
}
