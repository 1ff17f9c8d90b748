import { createHash, randomBytes } from 'node:crypto';
import { GATE, INLINE_DATA_MAX_BYTES, MAX_BODY_BYTES } from '#contract/limits';
import { USAGE_HEADERS, type DynamoDbUsage } from '#local/dynamodb-usage';
import { freshIdempotencyHeaders } from './idempotency-key';
import { api, createKey, createRequest, createSecret, dataFilling, freshClientAddress, requestPublicKey, type ApiResponse } from './api';

/**
 * One request per route and size, with the DynamoDB calls it makes, counted from local mode's
 * usage headers. Shared by test/integration/round-trips.test.ts (which fails CI on any change)
 * and `npm run bench` (which reports the calls and capacity against the budget).
 */

/** Two calls for data the head holds; larger data adds its chunk items' calls (INLINE_DATA_MAX_BYTES says why). */
export const ROUND_TRIP_BUDGET = { calls: 2, upToPayloadBytes: INLINE_DATA_MAX_BYTES } as const;
/** A route's calls beyond the budget for a write of its own: a revocation's receipt, so that a status read after its answer finds it. */
export const OWN_WRITES: Readonly<Record<string, number>> = { 'secrets-revoke': 1 };
export const routeCallBudget = (route: string): number => ROUND_TRIP_BUDGET.calls + (OWN_WRITES[route] ?? 0);
/** A request with an Idempotency-Key makes one call more: its record's own write (docs/decisions/idempotency.md). */
const IDEMPOTENCY_RECORD_CALLS = 1;

export interface RoundTripCase {
  name: string;
  /** The request body, or for a claim the response body: the payload the budget's size limit is about. */
  payloadBytes: number;
  /** The calls the request makes with today's design. */
  calls: number;
  /** Calls the budget allows beyond ROUND_TRIP_BUDGET.calls: an Idempotency-Key's record, a revocation's receipt. */
  ownWrites?: number;
  /**
   * Sets up what the request needs (not measured), then sends it. `signInToken`: a signed-in
   * deployment's token, with which every key the case mints is a full key.
   */
  send(baseUrl: string, signInToken?: string): Promise<ApiResponse>;
}

const KB = 1024;
const SIZES = { '1 KB': KB, '300 KB': 300 * KB, '1 MB': 1_000_000, '5 MiB': MAX_BODY_BYTES } as const;
type Size = keyof typeof SIZES;

/** The token a signed-in client sends to POST /keys; none on an open deployment. */
const signInHeaders = (signInToken: string | undefined): Record<string, string> => (signInToken ? { authorization: `Bearer ${signInToken}` } : {});

const freshKey = async (baseUrl: string, signInToken: string | undefined): Promise<string> =>
  (await createKey(undefined, baseUrl, signInHeaders(signInToken))).key;

/** A passphrase gate as a client makes one: a proof (random here; derived from the passphrase there) and its SHA-256. */
function newGate(): { proof: string; gate: string } {
  const proof = randomBytes(32);
  return { proof: proof.toString('base64url'), gate: createHash('sha256').update(proof).digest('base64url') };
}

async function secretOf(
  baseUrl: string,
  signInToken: string | undefined,
  size: Size,
  views: number,
  gate?: string,
): Promise<{ key: string; id: string }> {
  const key = await freshKey(baseUrl, signInToken);
  const fields = { views, ...(gate === undefined ? {} : { gate }) };
  const { id } = await createSecret(key, { data: dataFilling(SIZES[size], 7, fields), ...fields }, baseUrl);
  return { key, id };
}

const create = (size: Size, calls: number): RoundTripCase => ({
  name: `POST /secrets ${size}`,
  payloadBytes: SIZES[size],
  calls,
  send: async (baseUrl, signInToken) => {
    const key = await freshKey(baseUrl, signInToken);
    return api('POST', '/secrets', { key, json: { data: dataFilling(SIZES[size]) }, baseUrl });
  },
});

const claim = (size: Size, views: 1 | 2, calls: number): RoundTripCase => ({
  name: `GET /secrets/:id ${size}, ${views === 1 ? 'last view' : 'views remain'}`,
  payloadBytes: SIZES[size],
  calls,
  send: async (baseUrl, signInToken) => {
    const { key, id } = await secretOf(baseUrl, signInToken, size, views);
    return api('GET', `/secrets/${id}`, { key, baseUrl });
  },
});

/** A passphrase-gated secret claimed with the right proof: the proof is checked by the claim's own update. */
const gatedClaim = (size: Size, calls: number): RoundTripCase => ({
  name: `GET /secrets/:id ${size}, passphrase gate, right proof`,
  payloadBytes: SIZES[size],
  calls,
  send: async (baseUrl, signInToken) => {
    const { proof, gate } = newGate();
    const { key, id } = await secretOf(baseUrl, signInToken, size, 1, gate);
    return api('GET', `/secrets/${id}`, { key, baseUrl, headers: { [GATE.proofHeader]: proof } });
  },
});

const revoke = (size: Size, calls: number): RoundTripCase => ({
  name: `DELETE /secrets/:id ${size}`,
  // No body, but what it deletes is that large.
  payloadBytes: SIZES[size],
  calls,
  ownWrites: OWN_WRITES['secrets-revoke'],
  send: async (baseUrl, signInToken) => {
    const { key, id } = await secretOf(baseUrl, signInToken, size, 1);
    return api('DELETE', `/secrets/${id}`, { key, baseUrl });
  },
});

const status = (size: Size, calls: number): RoundTripCase => ({
  name: `GET /secrets/:id/status ${size}, active`,
  // No view taken and no data read back, but the head read is billed by its whole size.
  payloadBytes: SIZES[size],
  calls,
  send: async (baseUrl, signInToken) => {
    const { key, id } = await secretOf(baseUrl, signInToken, size, 2);
    return api('GET', `/secrets/${id}/status`, { key, baseUrl });
  },
});

/** A receipt that outlived its secret: revoked, then asked for once the stream consumer has written it. */
const receiptOnly: RoundTripCase = {
  name: 'GET /secrets/:id/status, receipt only (revoked)',
  payloadBytes: 0,
  calls: 2,
  send: async (baseUrl, signInToken) => {
    const { key, id } = await secretOf(baseUrl, signInToken, '1 KB', 1);
    await api('DELETE', `/secrets/${id}`, { key, baseUrl });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await api<{ state?: string }>('GET', `/secrets/${id}/status`, { key, baseUrl });
      if (answer.body.state === 'revoked' || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  },
};

/** An open request of a fresh key, and another fresh key to act as its sender. */
async function openRequest(baseUrl: string, signInToken: string | undefined): Promise<{ requester: string; sender: string; id: string }> {
  const requester = await freshKey(baseUrl, signInToken);
  const { id } = await createRequest(requester, { note: 'the database password, please' }, baseUrl);
  return { requester, sender: await freshKey(baseUrl, signInToken), id };
}

const fulfilRequest = (size: Size, calls: number): RoundTripCase => ({
  name: `POST /requests/:id ${size}`,
  payloadBytes: SIZES[size],
  calls,
  send: async (baseUrl, signInToken) => {
    const { sender, id } = await openRequest(baseUrl, signInToken);
    return api('POST', `/requests/${id}`, { key: sender, json: { data: dataFilling(SIZES[size]) }, baseUrl });
  },
});

const claimAnswer = (size: Size, calls: number): RoundTripCase => ({
  name: `GET /secrets/:id ${size}, a request's answer`,
  payloadBytes: SIZES[size],
  calls,
  send: async (baseUrl, signInToken) => {
    const { requester, sender, id } = await openRequest(baseUrl, signInToken);
    await api('POST', `/requests/${id}`, { key: sender, json: { data: dataFilling(SIZES[size]) }, baseUrl });
    return api('GET', `/secrets/${id}`, { key: requester, baseUrl });
  },
});

const REQUEST_CASES: readonly RoundTripCase[] = [
  {
    name: 'POST /requests',
    payloadBytes: 200,
    calls: 2,
    send: async (baseUrl, signInToken) =>
      api('POST', '/requests', { key: await freshKey(baseUrl, signInToken), json: { publicKey: requestPublicKey() }, baseUrl }),
  },
  {
    name: 'GET /requests/:id',
    payloadBytes: 0,
    calls: 2,
    send: async (baseUrl, signInToken) => {
      const { sender, id } = await openRequest(baseUrl, signInToken);
      return api('GET', `/requests/${id}`, { key: sender, baseUrl });
    },
  },
  fulfilRequest('1 KB', 2),
  fulfilRequest('300 KB', 3),
  // Above 300 KB an answer's bytes are counted against the client's address, as a secret's are.
  fulfilRequest('1 MB', 4),
  {
    name: 'GET /requests/:id/status',
    payloadBytes: 0,
    calls: 2,
    send: async (baseUrl, signInToken) => {
      const { requester, id } = await openRequest(baseUrl, signInToken);
      return api('GET', `/requests/${id}/status`, { key: requester, baseUrl });
    },
  },
  claimAnswer('1 KB', 2),
  claimAnswer('1 MB', 4),
];

/** Sent as the clients send it, with a fresh Idempotency-Key, whose record costs one call. */
const keyed = (roundTripCase: RoundTripCase, send: RoundTripCase['send']): RoundTripCase => ({
  ...roundTripCase,
  name: `${roundTripCase.name}, with Idempotency-Key`,
  calls: roundTripCase.calls + IDEMPOTENCY_RECORD_CALLS,
  ownWrites: (roundTripCase.ownWrites ?? 0) + IDEMPOTENCY_RECORD_CALLS,
  send,
});

export const ROUND_TRIP_CASES: readonly RoundTripCase[] = [
  { name: 'GET /health', payloadBytes: 0, calls: 1, send: (baseUrl) => api('GET', '/health', { baseUrl }) },
  {
    name: 'POST /keys',
    payloadBytes: 0,
    calls: 2,
    // From an address of its own: 127.0.0.1 has made the warm-latency runs' key creations this hour.
    send: (baseUrl, signInToken) => api('POST', '/keys', { baseUrl, localAddress: freshClientAddress(), headers: signInHeaders(signInToken) }),
  },
  {
    name: 'GET /keys',
    payloadBytes: 0,
    calls: 1,
    send: async (baseUrl, signInToken) => api('GET', '/keys', { key: await freshKey(baseUrl, signInToken), baseUrl }),
  },
  {
    name: 'PATCH /keys',
    payloadBytes: 40,
    calls: 2,
    send: async (baseUrl, signInToken) =>
      api('PATCH', '/keys', { key: await freshKey(baseUrl, signInToken), json: { webhook: 'https://hooks.example.com/x' }, baseUrl }),
  },
  {
    name: 'DELETE /keys',
    payloadBytes: 0,
    calls: 2,
    send: async (baseUrl, signInToken) => api('DELETE', '/keys', { key: await freshKey(baseUrl, signInToken), baseUrl }),
  },
  create('1 KB', 2),
  create('300 KB', 3),
  claim('1 KB', 2, 2),
  claim('1 KB', 1, 2),
  claim('300 KB', 1, 4),
  gatedClaim('1 KB', 2),
  gatedClaim('300 KB', 4),
  revoke('1 KB', 3),
  // Above 300 KB the body's bytes are counted against the client's address too: one more call.
  create('1 MB', 4),
  claim('1 MB', 2, 4),
  claim('1 MB', 1, 4),
  gatedClaim('1 MB', 4),
  create('5 MiB', 4),
  claim('5 MiB', 1, 4),
  revoke('5 MiB', 4),
  status('1 KB', 2),
  status('300 KB', 2),
  receiptOnly,
  keyed(create('1 KB', 2), async (baseUrl, signInToken) =>
    api('POST', '/secrets', {
      key: await freshKey(baseUrl, signInToken),
      json: { data: dataFilling(SIZES['1 KB']) },
      headers: freshIdempotencyHeaders(),
      baseUrl,
    }),
  ),
  keyed(claim('300 KB', 1, 4), async (baseUrl, signInToken) => {
    const { key, id } = await secretOf(baseUrl, signInToken, '300 KB', 1);
    return api('GET', `/secrets/${id}`, { key, headers: freshIdempotencyHeaders(), baseUrl });
  }),
  keyed(claim('1 MB', 2, 4), async (baseUrl, signInToken) => {
    const { key, id } = await secretOf(baseUrl, signInToken, '1 MB', 2);
    return api('GET', `/secrets/${id}`, { key, headers: freshIdempotencyHeaders(), baseUrl });
  }),
  keyed(REQUEST_CASES[0]!, async (baseUrl, signInToken) =>
    api('POST', '/requests', {
      key: await freshKey(baseUrl, signInToken),
      json: { publicKey: requestPublicKey() },
      headers: freshIdempotencyHeaders(),
      baseUrl,
    }),
  ),
  keyed(fulfilRequest('300 KB', 3), async (baseUrl, signInToken) => {
    const { sender, id } = await openRequest(baseUrl, signInToken);
    return api('POST', `/requests/${id}`, { key: sender, json: { data: dataFilling(SIZES['300 KB']) }, headers: freshIdempotencyHeaders(), baseUrl });
  }),
  keyed(revoke('1 KB', 3), async (baseUrl, signInToken) => {
    const { key, id } = await secretOf(baseUrl, signInToken, '1 KB', 1);
    return api('DELETE', `/secrets/${id}`, { key, headers: freshIdempotencyHeaders(), baseUrl });
  }),
  ...REQUEST_CASES,
];

export const isBudgeted = (roundTripCase: RoundTripCase): boolean => roundTripCase.payloadBytes <= ROUND_TRIP_BUDGET.upToPayloadBytes;
export const callBudgetOf = (roundTripCase: RoundTripCase): number => ROUND_TRIP_BUDGET.calls + (roundTripCase.ownWrites ?? 0);

/** The usage local mode reported for one response; throws if the response did not come from a handler. */
export function usageOf(response: ApiResponse): DynamoDbUsage {
  const read = (header: string): number => {
    const value = response.headers[header];
    if (value === undefined) throw new Error(`no ${header} header: status ${response.status} ${response.raw.slice(0, 200)}`);
    return Number(value);
  };
  return {
    calls: read(USAGE_HEADERS.calls),
    readUnits: read(USAGE_HEADERS.readUnits),
    writeUnits: read(USAGE_HEADERS.writeUnits),
  };
}
