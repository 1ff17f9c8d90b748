import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { API_KEY_FORMAT_DESCRIPTION } from '#contract/errors';
import {
  API_BASE_PATH,
  GATE,
  IDEMPOTENCY,
  MAX_BODY_BYTES,
  RATE_LIMIT,
  SLOW_STORE_MS,
  STORED_BYTES_LIMIT,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
} from '#contract/limits';
import { TOKEN_CLOCK_SKEW_SECONDS } from '#contract/create-access';
import { REQUEST_PUBLIC_KEY_PATTERN } from '#contract/requests';
import { WEBHOOK_HEADERS, WEBHOOK_REQUEST_TIMEOUT_MS } from '#lambdas/definitions/webhooks';
import { secretEventSchema, webhookPayloadSchema } from '#lambdas/webhooks/rules/webhook-job';
import { ROUTES, type RouteName } from '#lambdas/definitions/routes';
import PACKAGE from '../package.json';
import * as schemas from '#contract/schemas';

/**
 * docs/openapi.json, built from the route table and the zod schemas the handlers validate and
 * answer with (zod 4's own toJSONSchema: no generator dependency). `npm run openapi`
 * writes it; a unit test fails when the committed file and this drift apart.
 */
export const OPENAPI_PATH = path.resolve(__dirname, '../docs/openapi.json');

type JsonSchema = Record<string, unknown>;

type Override = (context: { zodSchema: unknown; jsonSchema: JsonSchema; path: (string | number)[] }) => void;

/** zod's JSON Schema of `schema`, as the handlers' own checks state it. */
function zodJsonSchema(schema: z.ZodMiniType, io: 'input' | 'output', override?: Override): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, override }) as JsonSchema;
  return rest;
}

/**
 * Standard base64 as isStandardBase64 (contract/base64.ts) accepts it; the handlers check it
 * without a pattern, slow over 5 MiB. test/unit/openapi/stated-patterns.test.ts pins the two together.
 */
export const STANDARD_BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$';

/** The pattern zod states for `schema`, or for one of its properties. */
function patternOf(schema: z.ZodMiniType, property?: string): string {
  const stated = zodJsonSchema(schema, 'input');
  const pattern = property === undefined ? stated.pattern : (stated.properties as Record<string, JsonSchema>)[property]?.pattern;
  if (typeof pattern !== 'string') throw new Error(`no pattern to state for ${property ?? 'the schema'}`);
  return pattern;
}

/**
 * By property name, for strings that state no pattern or format: what a refinement checks, or what
 * the resource was made with, so that a generated client or a gateway can check it as well.
 */
const STATED: Record<string, JsonSchema> = {
  data: { pattern: STANDARD_BASE64_PATTERN },
  webhook: { format: 'uri' },
  // The first of a P-256 key's checks (contract/p256.ts); the curve equation is the rest.
  publicKey: { pattern: REQUEST_PUBLIC_KEY_PATTERN.source },
  // A request's note in answers, as POST /requests took it.
  note: { pattern: patternOf(schemas.createRequestBody, 'note') },
};

/** PATCH /keys takes a URL or `""`, which removes the webhook. */
function webhookOrNone(node: JsonSchema): void {
  const url = { ...node, format: 'uri' };
  for (const keyword of Object.keys(node)) delete node[keyword];
  Object.assign(node, { anyOf: [url, { type: 'string', const: '' }] });
}

/**
 * By the schema itself where a name says too much: any property may be called `id` (a webhook's
 * `data.id` is the id POST /secrets or POST /requests made), and only PATCH /keys' `webhook` may be `""`.
 */
const MADE_ID = { pattern: patternOf(schemas.secretId) };
const STATED_BY_SCHEMA = new Map<unknown, (node: JsonSchema) => void>([
  [schemas.updateKeyBody.shape.webhook, webhookOrNone],
  [secretEventSchema.shape.data.shape.id, (node) => Object.assign(node, MADE_ID)],
]);

const withStatedChecks: Override = (context) => {
  const { zodSchema, jsonSchema: node, path } = context;
  if (node.type === 'integer' && !('format' in node)) {
    // Every integer says how wide it is, for generated clients to pick their type.
    const [lowest, highest] = [node.minimum ?? node.exclusiveMinimum ?? -Infinity, node.maximum ?? node.exclusiveMaximum ?? Infinity] as number[];
    node.format = (lowest as number) >= -(2 ** 31) && (highest as number) < 2 ** 31 ? 'int32' : 'int64';
  }
  const bySchema = STATED_BY_SCHEMA.get(zodSchema);
  if (bySchema) return bySchema(node);
  if (node.type !== 'string' || 'format' in node || 'pattern' in node || 'enum' in node || 'const' in node) return;
  const at = path.lastIndexOf('properties');
  const property = at === -1 ? undefined : path[at + 1];
  const stated = typeof property === 'string' ? STATED[property] : undefined;
  if (stated) Object.assign(node, stated);
};

/** OpenAPI 3.1 schemas are JSON Schema 2020-12, zod's default target; the dialect is declared once, at the top. */
const jsonSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema => zodJsonSchema(schema, io, withStatedChecks);
/** A body's content: always JSON. */
const json = (schema: object) => ({ 'application/json': { schema } });

/** A header holding a whole number: digits only, at most a millisecond timestamp's 16. */
const DIGITS = { type: 'string', pattern: '^\\d+$', maxLength: 16 } as const;

/**
 * The service sends header names in lower case (HTTP ignores case); the rate-limit ones are spelt as
 * RFC 9110 and GitHub's API do, which is how OWASP's rules (Spectral) look for them.
 */
const HEADERS = {
  'x-request-id': {
    description: "Identifier of the request, unique per request (a UUID: API Gateway's request id, or local mode's).",
    schema: { type: 'string', format: 'uuid', maxLength: 36 },
  },
  'cache-control': { description: 'Always `no-store`.', schema: { type: 'string', const: 'no-store' } },
  'x-content-type-options': { description: 'Always `nosniff`.', schema: { type: 'string', const: 'nosniff' } },
  'X-RateLimit-Limit': { description: `Requests allowed per window (${RATE_LIMIT.requests}).`, schema: DIGITS },
  'X-RateLimit-Remaining': { description: 'Requests left in the window.', schema: DIGITS },
  'X-RateLimit-Reset': { description: 'When the window resets: Unix time in milliseconds.', schema: DIGITS },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: DIGITS },
  [GATE.attemptsLeftHeader]: {
    description: `Wrong passphrase proofs the gated secret still accepts (${GATE.attempts} at creation); the one that leaves 0 deleted it.`,
    schema: DIGITS,
  },
} as const;
type HeaderName = keyof typeof HEADERS;

const RATE_LIMIT_HEADERS: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * What a route answers with a status: `schema` is the error body when absent; `headers` are sent
 * with this outcome alone, always. `retryAfter` on a 409: sent where waiting helps, so not with one
 * that retrying cannot fix; 429 and 503 always send it.
 */
type Outcome = { description: string; schema?: z.ZodMiniType; headers?: HeaderName[]; retryAfter?: 'always' | 'sometimes' };

/** `description`: what a reader of the route needs beyond its summary (the rules live in docs/api.md). */
type RouteDocument = {
  summary: string;
  description: string;
  request?: { schema: z.ZodMiniType; required: boolean };
  outcomes: Record<number, Outcome>;
};

const error = (description: string): Outcome => ({ description });
const answer = (description: string, schema: z.ZodMiniType): Outcome => ({ description, schema });

/**
 * Each response schema once, under components/schemas, referred to by name. Request bodies are
 * written inline in their operation: a generator such as openapi-typescript reads a `default` as
 * "always present" in a named schema (right for what a server answers) but not in a request body,
 * where a default means "may be left out" (ttl, type and views of POST /secrets).
 */
const NAMED_SCHEMAS: Record<string, z.ZodMiniType> = {
  Error: schemas.errorResponse,
  Health: schemas.healthResponse,
  CreatedKey: schemas.createKeyResponse,
  KeyDetails: schemas.getKeyResponse,
  Updated: schemas.updateKeyResponse,
  Deleted: schemas.deleteResponse,
  WebhookTestQueued: schemas.webhookTestResponse,
  CreatedSecret: schemas.createSecretResponse,
  ClaimedSecret: schemas.claimSecretResponse,
  SecretStatus: schemas.secretStatusResponse,
  CreatedRequest: schemas.createRequestResponse,
  RequestDetails: schemas.requestDetailsResponse,
  Fulfilled: schemas.fulfilRequestResponse,
  RequestStatus: schemas.requestStatusResponse,
  WebhookEvent: webhookPayloadSchema,
};

function ref(schema: z.ZodMiniType): { $ref: string } {
  const name = Object.keys(NAMED_SCHEMAS).find((candidate) => NAMED_SCHEMAS[candidate] === schema);
  if (!name) throw new Error('a schema the document uses has no name in NAMED_SCHEMAS');
  return { $ref: `#/components/schemas/${name}` };
}

/** What every route may answer, whatever it does. */
const EVERY_ROUTE: Record<number, Outcome> = {
  400: error('Bad request: a body that is not JSON, not an object, not `application/json`, or that fails validation. The message names the field.'),
  413: error(`The request body exceeds ${MAX_BODY_BYTES} bytes (5 MiB).`),
  500: error('Server error.'),
  503: error(
    "The data store could not be reached or did not answer within the request's time budget; `retry-after` says when to try again. Nothing was done that the request's repeat would not find done.",
  ),
};

const AUTHENTICATED: Record<number, Outcome> = {
  401: error('Missing, malformed, unknown, revoked or expired API key (`API key expired`).'),
  429: error(`Over ${RATE_LIMIT.requests} requests per minute for this API key (sliding window).`),
};

/** createAccess=signed-in deployments (docs/deploy.md): what a key minted without signing in may not do. */
const REVEAL_ONLY_REFUSED = error(
  'Only on a deployment where creating needs signing in (`createAccess=signed-in`): this key was minted without a sign-in token and may only claim secrets, answer requests and read or revoke itself. Nothing was done.',
);

const SECRET_GONE = error('The secret does not exist, was used up, expired or was revoked (revoking: or belongs to another key).');

const REQUEST_NOT_FOUND = error("No such request, it expired, or (status) it is not this key's or its answer was read.");
/** POST /secrets and POST /requests/{id}: what they store counts against one daily byte quota. */
const STORED_BYTES_REFUSED = error(
  `Over ${RATE_LIMIT.requests} requests per minute for this API key, or past a daily byte quota of the bodies of POST /secrets and POST /requests/{id} together in a sliding day: per key (${STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay} MiB by default) or, for bodies over ${STORED_BYTES_LIMIT.addressCountedAbove / 1024} KiB, per client address (${STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay} MiB by default). The refused body's bytes are not counted.`,
);
const REQUEST_FULFILLED = error('The request was fulfilled already: a request takes one answer. No `retry-after`: waiting changes nothing.');

/** The answers a route with an Idempotency-Key adds (docs/api.md, "Idempotent requests"). */
const IDEMPOTENT_OUTCOMES: Record<number, Outcome> = {
  400: error(`A malformed body or field, or a malformed ${IDEMPOTENCY.header} (16 to 64 characters of A-Z, a-z, 0-9, _ and -).`),
  409: {
    description: `An earlier request with this ${IDEMPOTENCY.header} is still being handled: nothing was done; repeat it after \`retry-after\`.`,
    retryAfter: 'always',
  },
};

/** Routes that need no credentials; the others need `Authorization: Bearer <key>`: 401 without, 429 over the rate limit, rate-limit headers. */
const PUBLIC_ROUTES: ReadonlySet<RouteName> = new Set(['health', 'keys-create']);

const ROUTE_DOCUMENTS: Record<RouteName, RouteDocument> = {
  health: {
    summary: 'Health of the service and its data store (no credentials).',
    description:
      'Reads the data store once and reports its round trip in `latency` (ms). Needs no credentials and counts against no rate limit of the service (on AWS, the web ACL still limits each address).',
    outcomes: {
      200: answer('Healthy. `redis` reports the data store (DynamoDB); the name is kept for client compatibility.', schemas.healthResponse),
      503: {
        description: `The data store did not answer (\`redis: "disconnected"\`), or answered slower than ${SLOW_STORE_MS} ms, more than the routes' time budgets bear (\`redis: "connected"\`).`,
        schema: schemas.healthResponse,
      },
    },
  },
  'keys-create': {
    summary: 'Create an API key (no credentials). The key is shown only here.',
    description:
      'On a `signed-in` deployment, `Authorization: Bearer <ID token>` from its OpenID Connect issuer mints a full key; without it, a reveal-only key (claims secrets, reads and revokes itself; 403 elsewhere). Needs no credentials: this is how a client gets its first key. Each client address may create a limited number of keys per hour (`KEYS_PER_IP_PER_HOUR`, context `keysPerIpPerHour`). Only a SHA-256 digest of the key is stored. An optional `webhook` must be a public `https://` URL.',
    request: { schema: schemas.createKeyBody, required: false },
    outcomes: {
      201: answer('The new key, its expiry (90 days) and its webhook signing secret.', schemas.createKeyResponse),
      401: error(
        `Only on a \`signed-in\` deployment, sent \`Authorization\`: not a bearer JWT its OpenID Connect issuer signed for its audience, live within ${TOKEN_CLOCK_SKEW_SECONDS} s of clock skew (\`invalid sign-in token: <why>\`: expired, another audience, another issuer, a signature that does not verify, an algorithm not accepted, malformed). No key is created and the address's allowance is not used.`,
      ),
      403: error(
        "Only on a `signed-in` deployment: a valid token of an account its allow-list leaves out (`sign-in account not allowed: <why>`: the email's domain, an unverified email, no allowed group). No key is created.",
      ),
      429: error('Too many keys created from this client address (20 per hour by default).'),
      503: error(
        "The data store could not be reached, or (on a `signed-in` deployment) the issuer's signing keys could not be fetched; `retry-after` says when to try again. No key was created.",
      ),
    },
  },
  'keys-get': {
    summary: "The calling key's details.",
    description: 'Counts against the rate limit like every authenticated request. `webhook` is absent when none is set.',
    outcomes: { 200: answer('Masked key, webhook (absent when none), creation and expiry times, signing secret.', schemas.getKeyResponse) },
  },
  'keys-update': {
    summary: 'Set (an https URL) or remove ("") the calling key\'s webhook.',
    description:
      'An `https://` URL at a public address sets the webhook; `""` removes it. Events already queued go to the webhook the key has when they are delivered.',
    request: { schema: schemas.updateKeyBody, required: true },
    outcomes: { 200: answer('Updated.', schemas.updateKeyResponse), 403: REVEAL_ONLY_REFUSED },
  },
  'keys-webhook-test': {
    summary: "Send a `webhook.test` event to the calling key's webhook.",
    description: 'Counts against the rate limit like every authenticated request. `data` is `{}`; every call is a new event with an id of its own.',
    outcomes: {
      202: answer('Queued; delivered, retried and dead-lettered as every event, under this `eventId`.', schemas.webhookTestResponse),
      400: error('The key has no webhook.'),
      403: REVEAL_ONLY_REFUSED,
    },
  },
  'keys-delete': {
    summary: 'Revoke the calling key at once.',
    description: 'The key stops working at once: its next request gets 401.',
    outcomes: { 200: answer('Revoked.', schemas.deleteResponse) },
  },
  'secrets-create': {
    summary: 'Store a client-encrypted secret.',
    description:
      '`data` is standard base64 of what the client encrypted; the service never sees the plaintext. Defaults: `ttl` `1d`, `views` 1, `type` `text`. `filename` and `mimetype` only with `type: "file"`. Sends `secret.created` to the key\'s webhook.',
    request: { schema: schemas.createSecretBody, required: true },
    outcomes: {
      201: answer('Its id and its url (`{site_url}/<id>`); a repeat with the same Idempotency-Key answers the same.', schemas.createSecretResponse),
      403: REVEAL_ONLY_REFUSED,
      422: error(`The ${IDEMPOTENCY.header} was used before with a different body.`),
      429: STORED_BYTES_REFUSED,
    },
  },
  'secrets-claim': {
    summary: 'Claim a secret: consumes one view; the last one deletes it.',
    description:
      'Any valid key may claim: the id is the capability. N simultaneous claims of a secret with V views left yield exactly min(N, V) successes. Sends `secret.viewed`, or `secret.expired` for the last view.',
    outcomes: {
      200: answer(
        'The stored data and metadata, and the views left; a repeat with the same Idempotency-Key answers the same, using no view.',
        schemas.claimSecretResponse,
      ),
      403: {
        description: `A passphrase-gated secret, claimed without \`${GATE.proofHeader}\` (\`passphrase required\`) or with a wrong proof (\`wrong passphrase\`). No view is used; a wrong proof uses one of the ${GATE.attempts} attempts, and the one that uses the last deletes the secret (then 404, and \`secret.burned\`).`,
        headers: [GATE.attemptsLeftHeader],
      },
      404: SECRET_GONE,
    },
  },
  'secrets-revoke': {
    summary: 'Delete a secret before it is used up; only the key that created it may.',
    description:
      'Only the key that created the secret may revoke it; for any other key the answer is the same 404 as for an unknown id, and the secret is untouched. Sends no event.',
    outcomes: { 200: answer('Deleted.', schemas.deleteResponse), 403: REVEAL_ONLY_REFUSED, 404: SECRET_GONE },
  },
  'secrets-status': {
    summary: "A secret's receipt: what became of it, for the key that created it. Uses no view.",
    description:
      'Answers while the secret lives and until 7 days after its `expires`, the data long gone (a record without data, filename or mimetype). Only the key that created the secret sees it; for any other key the answer is the same 404 as for an unknown id. Sends no event.',
    outcomes: {
      200: answer(
        'Its state (`active`, `used`, `revoked`, `expired`, `burned`), views, views left, creation and expiry times and the time of each view (ms).',
        schemas.secretStatusResponse,
      ),
      404: error("No receipt for this key: any other key, an unknown id, and a receipt past its 7 days get the claim's `secret not found`."),
    },
  },
  'requests-create': {
    summary: 'Ask for a secret: register a P-256 public key (and a note, public to the link holder) that the answer is encrypted to.',
    description:
      "`publicKey` is the requester's P-256 public key, the uncompressed point as unpadded base64url (87 characters), checked to be on the curve. `note` is public to whoever holds the request's id. `ttl` (default `1d`) is how long the request waits for its answer, and then how long the answer waits to be read. Sends no event.",
    request: { schema: schemas.createRequestBody, required: true },
    outcomes: {
      201: answer("Its id, the sender's page (`{site_url}/r/<id>`) and until when it may be fulfilled.", schemas.createRequestResponse),
      403: REVEAL_ONLY_REFUSED,
    },
  },
  'requests-get': {
    summary: 'What the sender needs to encrypt the answer (any key): the public key, the note and the expiry.',
    description:
      "Any valid key: the request's id is the sender's capability. Clients check `publicKey` against the fingerprint their request link carries before encrypting anything.",
    outcomes: { 200: answer('An open request.', schemas.requestDetailsResponse), 404: REQUEST_NOT_FOUND, 409: REQUEST_FULFILLED },
  },
  'requests-fulfil': {
    summary: "Answer a request once (any key): the answer becomes a one-view secret of the requester's key, under the request's id.",
    description:
      "Any valid key, once. The content fields and limits of POST /secrets; `ttl`, `views` and `gate` are unknown fields (an answer carries no passphrase gate). The answer becomes a one-view secret of the requester's key under the request's id, claimable by that key only. Sends `request.fulfilled` to the requester's webhook.",
    request: { schema: schemas.fulfilRequestBody, required: true },
    outcomes: {
      201: answer('Fulfilled.', schemas.fulfilRequestResponse),
      404: REQUEST_NOT_FOUND,
      409: {
        description: `The request was fulfilled already (no \`retry-after\`: a request takes one answer), or an earlier request with this ${IDEMPOTENCY.header} is still being handled (nothing was done; repeat it after \`retry-after\`).`,
        retryAfter: 'sometimes',
      },
      429: STORED_BYTES_REFUSED,
    },
  },
  'requests-status': {
    summary: "The state of a request (its requester's key only) and, once fulfilled, the id to claim its answer with.",
    description:
      "Only the requester's key; any other key, an unknown id and an answer already read get the same 404. Uses no view. `secret` is the id to claim the answer with once `state` is `fulfilled`.",
    outcomes: { 200: answer('open, fulfilled (answer waiting) or expired.', schemas.requestStatusResponse), 404: REQUEST_NOT_FOUND },
  },
};

/** Required headers by reference to components/headers; optional ones in full, as a reference cannot change `required`. */
function headersOf(status: number, authenticated: boolean, outcome: Outcome): Record<string, unknown> {
  const required: Partial<Record<HeaderName, boolean>> = { 'x-request-id': true, 'cache-control': true, 'x-content-type-options': true };
  // A 413 or 500 may come before the key is counted (the gateway's own body limit, a store failure).
  const counted = status < 300 || status === 403 || status === 404 || status === 429;
  if (authenticated && status !== 401) for (const name of RATE_LIMIT_HEADERS) required[name] = counted;
  if (status === 429 || status === 503 || outcome.retryAfter) required['Retry-After'] = outcome.retryAfter !== 'sometimes';
  for (const name of outcome.headers ?? []) required[name] = true;
  return Object.fromEntries(
    Object.entries(required).map(([name, always]) => [
      name,
      always ? { $ref: `#/components/headers/${name}` } : { ...HEADERS[name as HeaderName], required: false },
    ]),
  );
}

/** A header a request or a webhook delivery carries, stated as a pattern. */
const headerParameter = (name: string, required: boolean, description: string, pattern: string, maxLength: number) => ({
  name,
  in: 'header',
  required,
  description,
  schema: { type: 'string', pattern, maxLength },
});

const PROOF_PARAMETER = headerParameter(
  GATE.proofHeader,
  false,
  'The passphrase proof of a gated secret (docs/client.md): 43 characters of unpadded base64url, whose SHA-256 is the `gate` ' +
    'it was created with. Ignored by a secret without a gate.',
  GATE.digestPattern.source,
  GATE.digestLength,
);

const IDEMPOTENCY_KEY_PARAMETER = headerParameter(
  IDEMPOTENCY.header,
  false,
  'IETF httpapi draft: a repeat with the same API key, route, id and key within 60 s of the first answer is answered as the ' +
    'first was, doing nothing again (a claim uses no view). Send a fresh key per operation.',
  IDEMPOTENCY.pattern.source,
  IDEMPOTENCY.maxLength,
);

const EVENT_ID = '^evt_[0-9a-f]{32}$';
/** Ours, then those of the Standard Webhooks specification, which every delivery carries beside ours. */
const WEBHOOK_PARAMETERS = [
  headerParameter(WEBHOOK_HEADERS.signature, true, 'HMAC-SHA256 signature of the body.', '^t=\\d+,v1=[0-9a-f]{64}$', 90),
  headerParameter(WEBHOOK_HEADERS.eventId, true, 'Same id on every attempt of one event.', EVENT_ID, 36),
  headerParameter(WEBHOOK_HEADERS.standardId, true, `Standard Webhooks: the same as ${WEBHOOK_HEADERS.eventId}.`, EVENT_ID, 36),
  headerParameter(WEBHOOK_HEADERS.standardTimestamp, true, 'Standard Webhooks: Unix seconds of this attempt.', '^\\d+$', 12),
  headerParameter(
    WEBHOOK_HEADERS.standardSignature,
    true,
    'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`.',
    '^v1,[A-Za-z0-9+/]{43}=$',
    47,
  ),
];

/** The events a key's webhook receives: OpenAPI 3.1's `webhooks`, one per event, each a signed POST. */
function webhooks() {
  return Object.fromEntries(
    [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT].map((event) => [
      event,
      {
        post: {
          operationId: `webhook-${event.replace('.', '-')}`,
          summary: `\`${event}\`, sent ${event === WEBHOOK_TEST_EVENT ? 'by POST /keys/webhook/test' : 'to the webhook of the key that created the secret'} (docs/webhooks.md).`,
          security: [{ webhookSignature: [] }],
          parameters: WEBHOOK_PARAMETERS,
          requestBody: { required: true, content: json(ref(webhookPayloadSchema)) },
          responses: { '2XX': { description: `Delivered; any other answer, or none within ${WEBHOOK_REQUEST_TIMEOUT_MS / 1000} s, is retried.` } },
        },
      },
    ]),
  );
}

function operation(route: (typeof ROUTES)[number]) {
  const name = route.name;
  const document = ROUTE_DOCUMENTS[name];
  const authenticated = !PUBLIC_ROUTES.has(name);
  const outcomes = {
    ...EVERY_ROUTE,
    ...(authenticated ? AUTHENTICATED : {}),
    ...(route.idempotent ? IDEMPOTENT_OUTCOMES : {}),
    ...document.outcomes,
  };
  const idParameter = {
    name: 'id',
    in: 'path',
    required: true,
    description: `The id POST ${route.path.startsWith('/requests') ? '/requests' : '/secrets'} returned.`,
    schema: jsonSchema(schemas.secretId, 'input'),
  };
  const parameters = [
    ...(route.path.includes('{id}') ? [idParameter] : []),
    ...(name === 'secrets-claim' ? [PROOF_PARAMETER] : []),
    ...(route.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  const responses = Object.fromEntries(
    Object.entries(outcomes).map(([status, outcome]) => [
      status,
      {
        description: outcome.description,
        headers: headersOf(Number(status), authenticated, outcome),
        content: json(ref(outcome.schema ?? schemas.errorResponse)),
      },
    ]),
  );
  return {
    operationId: name,
    summary: document.summary,
    description: document.description,
    // Grouped by the first segment of their path: health, keys, secrets, requests.
    tags: [route.path.split('/')[1] ?? route.path],
    security: authenticated ? [{ apiKey: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(document.request
      ? { requestBody: { required: document.request.required, content: json(jsonSchema(document.request.schema, 'input')) } }
      : {}),
    responses,
  };
}

function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'One-time secrets',
      version: '1',
      license: { name: PACKAGE.license, identifier: PACKAGE.license },
      description:
        'Self-hosted one-time-secret service. Secrets are encrypted by the client (see docs/client.md); the service stores ' +
        'and returns ciphertext. Every error is `{"error": "<message>"}`; an unknown route is 404 and an unsupported method ' +
        'on a known path 405 or 404, with that body.',
    },
    servers: [
      {
        url: `https://{site}${API_BASE_PATH}`,
        description:
          'A deployment: `site` is the host of the stack’s SiteUrl (or your domain). Local mode (`npm start`) serves the same API at http://localhost:3000/api/v1.',
        variables: { site: { default: 'secrets.example.com', description: 'The host of the stack’s SiteUrl.' } },
        'x-internal': false,
      },
    ],
    tags: [
      { name: 'health', description: 'Whether the service and its data store answer.' },
      { name: 'keys', description: 'API keys and their webhooks.' },
      { name: 'secrets', description: 'Client-encrypted secrets: create, claim, revoke.' },
      { name: 'requests', description: 'Secret requests: ask someone to send you a secret, encrypted to your key.' },
    ],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: `API key: ${API_KEY_FORMAT_DESCRIPTION}.` },
        // What a webhook's receiver checks: the service's signature, not a key of the receiver's.
        webhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: WEBHOOK_HEADERS.signature,
          description: "The service's HMAC-SHA256 signature of the body, made with the key's webhook signing secret (docs/webhooks.md).",
        },
      },
      headers: Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [name, { ...header, required: true }])),
      schemas: Object.fromEntries(Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
    },
    paths,
    webhooks: webhooks(),
  };
}

export const renderOpenApi = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (require.main === module) writeFileSync(OPENAPI_PATH, renderOpenApi());
