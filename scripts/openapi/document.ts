import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import { API_KEY_FORMAT_DESCRIPTION } from '../../lambdas/definitions/errors';
import { API_BASE_PATH, MAX_BODY_BYTES, RATE_LIMIT } from '../../lambdas/definitions/limits';
import { ROUTES, type RouteName } from '../../lambdas/definitions/routes';
import {
  claimSecretResponse,
  createKeyBody,
  createKeyResponse,
  createSecretBody,
  createRequestBody,
  createRequestResponse,
  createSecretResponse,
  deleteResponse,
  fulfilRequestBody,
  fulfilRequestResponse,
  requestDetailsResponse,
  requestStatusResponse,
  errorResponse,
  getKeyResponse,
  healthResponse,
  secretId,
  updateKeyBody,
  updateKeyResponse,
} from '../../lambdas/http/schemas';

/**
 * docs/openapi.json, built from the route table and the zod schemas the handlers validate and
 * answer with (zod 4's own toJSONSchema: no generator dependency). `npm run openapi`
 * writes it; a unit test fails when the committed file and this drift apart.
 */

type JsonSchema = Record<string, unknown>;

/** OpenAPI 3.1 schemas are JSON Schema 2020-12, zod's default target; the dialect is declared once, at the top. */
function jsonSchema(schema: ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io }) as JsonSchema;
  return rest;
}

const HEADERS = {
  'x-request-id': { description: 'Identifier of the request, unique per request.', schema: { type: 'string' } },
  'cache-control': { description: 'Always `no-store`.', schema: { type: 'string', const: 'no-store' } },
  'x-content-type-options': { description: 'Always `nosniff`.', schema: { type: 'string', const: 'nosniff' } },
  'x-ratelimit-limit': { description: `Requests allowed per window (${RATE_LIMIT.requests}).`, schema: { type: 'string', pattern: '^\\d+$' } },
  'x-ratelimit-remaining': { description: 'Requests left in the window.', schema: { type: 'string', pattern: '^\\d+$' } },
  'x-ratelimit-reset': { description: 'When the window resets: Unix time in milliseconds.', schema: { type: 'string', pattern: '^\\d+$' } },
  'retry-after': { description: 'Seconds to wait before trying again.', schema: { type: 'string', pattern: '^\\d+$' } },
} as const;
type HeaderName = keyof typeof HEADERS;

const RATE_LIMIT_HEADERS: HeaderName[] = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

interface Outcome {
  description: string;
  /** The error body when absent. */
  schema?: ZodMiniType;
}

interface RouteDocument {
  summary: string;
  /** Requests need `Authorization: Bearer <key>`: 401 without, 429 over the rate limit, rate-limit headers. */
  authenticated: boolean;
  request?: { schema: ZodMiniType; required: boolean };
  outcomes: Record<number, Outcome>;
}

const error = (description: string): Outcome => ({ description });

/** Each schema once, under components/schemas, referred to by name. */
const NAMED_SCHEMAS: readonly { name: string; schema: ZodMiniType; io: 'input' | 'output' }[] = [
  { name: 'Error', schema: errorResponse, io: 'output' },
  { name: 'Health', schema: healthResponse, io: 'output' },
  { name: 'CreateKeyRequest', schema: createKeyBody, io: 'input' },
  { name: 'CreatedKey', schema: createKeyResponse, io: 'output' },
  { name: 'KeyDetails', schema: getKeyResponse, io: 'output' },
  { name: 'UpdateKeyRequest', schema: updateKeyBody, io: 'input' },
  { name: 'Updated', schema: updateKeyResponse, io: 'output' },
  { name: 'Deleted', schema: deleteResponse, io: 'output' },
  { name: 'CreateSecretRequest', schema: createSecretBody, io: 'input' },
  { name: 'CreatedSecret', schema: createSecretResponse, io: 'output' },
  { name: 'ClaimedSecret', schema: claimSecretResponse, io: 'output' },
  { name: 'CreateRequestRequest', schema: createRequestBody, io: 'input' },
  { name: 'CreatedRequest', schema: createRequestResponse, io: 'output' },
  { name: 'RequestDetails', schema: requestDetailsResponse, io: 'output' },
  { name: 'FulfilRequestRequest', schema: fulfilRequestBody, io: 'input' },
  { name: 'Fulfilled', schema: fulfilRequestResponse, io: 'output' },
  { name: 'RequestStatus', schema: requestStatusResponse, io: 'output' },
];

function ref(schema: ZodMiniType): { $ref: string } {
  const named = NAMED_SCHEMAS.find((candidate) => candidate.schema === schema);
  if (!named) throw new Error('a schema the document uses has no name in NAMED_SCHEMAS');
  return { $ref: `#/components/schemas/${named.name}` };
}

/** What every route may answer, whatever it does. */
const EVERY_ROUTE: Record<number, Outcome> = {
  400: error('Bad request: a body that is not JSON, not an object, not `application/json`, or that fails validation. The message names the field.'),
  413: error(`The request body exceeds ${MAX_BODY_BYTES} bytes (5 MiB).`),
  500: error('Server error.'),
};

const AUTHENTICATED: Record<number, Outcome> = {
  401: error('Missing, malformed, unknown, revoked or expired API key (`API key expired`).'),
  429: error(`Over ${RATE_LIMIT.requests} requests per minute for this API key (sliding window).`),
};

const SECRET_GONE = error('The secret does not exist, was used up, expired or was revoked (revoking: or belongs to another key).');

const REQUEST_NOT_FOUND = error('No such request, it expired, or (status) it is not this key\'s or its answer was read.');
const REQUEST_FULFILLED = error('The request was fulfilled already: a request takes one answer.');

const ROUTE_DOCUMENTS: Record<RouteName, RouteDocument> = {
  health: {
    summary: 'Health of the service and its data store (no credentials).',
    authenticated: false,
    outcomes: {
      200: { description: 'Healthy. `redis` reports the data store (DynamoDB); the name is kept for client compatibility.', schema: healthResponse },
      503: { description: 'The data store did not answer.', schema: healthResponse },
    },
  },
  'keys-create': {
    summary: 'Create an API key (no credentials). The key is shown only here.',
    authenticated: false,
    request: { schema: createKeyBody, required: false },
    outcomes: {
      201: { description: 'The new key, its expiry (90 days) and its webhook signing secret.', schema: createKeyResponse },
      429: error('Too many keys created from this client address (20 per hour by default).'),
    },
  },
  'keys-get': {
    summary: "The calling key's details.",
    authenticated: true,
    outcomes: { 200: { description: 'Masked key, webhook (absent when none), creation and expiry times, signing secret.', schema: getKeyResponse } },
  },
  'keys-update': {
    summary: "Set (an https URL) or remove (\"\") the calling key's webhook.",
    authenticated: true,
    request: { schema: updateKeyBody, required: true },
    outcomes: { 200: { description: 'Updated.', schema: updateKeyResponse } },
  },
  'keys-delete': {
    summary: 'Revoke the calling key at once.',
    authenticated: true,
    outcomes: { 200: { description: 'Revoked.', schema: deleteResponse } },
  },
  'secrets-create': {
    summary: 'Store a client-encrypted secret.',
    authenticated: true,
    request: { schema: createSecretBody, required: true },
    outcomes: { 201: { description: 'Its id and its url (`{site_url}/<id>`).', schema: createSecretResponse } },
  },
  'secrets-claim': {
    summary: 'Claim a secret: consumes one view; the last one deletes it.',
    authenticated: true,
    outcomes: { 200: { description: 'The stored data and metadata, and the views left.', schema: claimSecretResponse }, 404: SECRET_GONE },
  },
  'secrets-revoke': {
    summary: 'Delete a secret before it is used up; only the key that created it may.',
    authenticated: true,
    outcomes: { 200: { description: 'Deleted.', schema: deleteResponse }, 404: SECRET_GONE },
  },
  'requests-create': {
    summary: 'Ask for a secret: register a P-256 public key (and a note, public to the link holder) that the answer is encrypted to.',
    authenticated: true,
    request: { schema: createRequestBody, required: true },
    outcomes: { 201: { description: 'Its id, the sender\'s page (`{site_url}/r/<id>`) and until when it may be fulfilled.', schema: createRequestResponse } },
  },
  'requests-get': {
    summary: 'What the sender needs to encrypt the answer (any key): the public key, the note and the expiry.',
    authenticated: true,
    outcomes: { 200: { description: 'An open request.', schema: requestDetailsResponse }, 404: REQUEST_NOT_FOUND, 409: REQUEST_FULFILLED },
  },
  'requests-fulfil': {
    summary: "Answer a request once (any key): the answer becomes a one-view secret of the requester's key, under the request's id.",
    authenticated: true,
    request: { schema: fulfilRequestBody, required: true },
    outcomes: { 201: { description: 'Fulfilled.', schema: fulfilRequestResponse }, 404: REQUEST_NOT_FOUND, 409: REQUEST_FULFILLED },
  },
  'requests-status': {
    summary: 'The state of a request (its requester\'s key only) and, once fulfilled, the id to claim its answer with.',
    authenticated: true,
    outcomes: { 200: { description: 'open, fulfilled (answer waiting) or expired.', schema: requestStatusResponse }, 404: REQUEST_NOT_FOUND },
  },
};

/** Required headers by reference to components/headers; optional ones in full, as a reference cannot change `required`. */
function headersOf(status: number, authenticated: boolean): Record<string, unknown> {
  const names: { name: HeaderName; required: boolean }[] = [
    { name: 'x-request-id', required: true },
    { name: 'cache-control', required: true },
    { name: 'x-content-type-options', required: true },
  ];
  if (authenticated && status !== 401) {
    // A 413 or 500 may come before the key is counted (the gateway's own body limit, a store failure).
    const counted = status < 300 || status === 404 || status === 429;
    names.push(...RATE_LIMIT_HEADERS.map((name) => ({ name, required: counted })));
  }
  if (status === 429) names.push({ name: 'retry-after', required: true });
  return Object.fromEntries(
    names.map(({ name, required }) => [name, required ? { $ref: `#/components/headers/${name}` } : { ...HEADERS[name], required }]),
  );
}

function operation(name: RouteName) {
  const route = ROUTES.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route ${name}`);
  const document = ROUTE_DOCUMENTS[name];
  const outcomes = { ...EVERY_ROUTE, ...(document.authenticated ? AUTHENTICATED : {}), ...document.outcomes };
  const responses = Object.fromEntries(
    Object.entries(outcomes).map(([status, outcome]) => [
      status,
      {
        description: outcome.description,
        headers: headersOf(Number(status), document.authenticated),
        content: { 'application/json': { schema: ref(outcome.schema ?? errorResponse) } },
      },
    ]),
  );
  return {
    path: route.path,
    method: route.method.toLowerCase(),
    operation: {
      operationId: name,
      summary: document.summary,
      security: document.authenticated ? [{ apiKey: [] }] : [],
      ...(route.path.includes('{id}')
        ? {
            parameters: [
              {
                name: 'id',
                in: 'path',
                required: true,
                description: `The id POST ${route.path.startsWith('/requests') ? '/requests' : '/secrets'} returned.`,
                schema: jsonSchema(secretId, 'input'),
              },
            ],
          }
        : {}),
      ...(document.request
        ? { requestBody: { required: document.request.required, content: { 'application/json': { schema: ref(document.request.schema) } } } }
        : {}),
      responses,
    },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const { path, method, operation: described } = operation(route.name);
    paths[path] = { ...paths[path], [method]: described };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'One-time secrets',
      version: '1',
      description:
        'Self-hosted one-time-secret service. Secrets are encrypted by the client (see docs/client.md); the service stores ' +
        'and returns ciphertext. Every error is `{"error": "<message>"}`; an unknown route is 404 and an unsupported method ' +
        'on a known path 405 or 404, with that body.',
    },
    servers: [{ url: `http://localhost:3000${API_BASE_PATH}`, description: 'Local mode (`npm start`); on AWS, the stack’s API URL.' }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: `API key: ${API_KEY_FORMAT_DESCRIPTION}.` } },
      headers: Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [name, { ...header, required: true }])),
      schemas: Object.fromEntries(NAMED_SCHEMAS.map(({ name, schema, io }) => [name, jsonSchema(schema, io)])),
    },
    paths,
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
