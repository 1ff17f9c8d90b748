import '../support/env';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PutCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { ERRORS } from '#contract/errors';
import { REVEAL_ONLY } from '#contract/create-access';
import { signInSubjectHash } from '#lambdas/rules/sign-in-subject';
import { expectErrorBody } from '../support/assertions';
import { mockDocumentClient, sentCommands } from '../support/dynamo';
import { apiEvent, bearer, invoke, jsonHeaders } from '../support/events';
import { apiKeyFixture, keyItem, serveKeyItem, type KeyItemState } from '../support/key-item';

/**
 * createAccess=signed-in, with real tokens: an issuer served over HTTP on this machine (discovery
 * document and JWKS, as an OpenID provider publishes them), tokens signed by jose, and the
 * function's own jose verifying them. DynamoDB is mocked: a refused token must make no call.
 */

const AUDIENCE = 'onetime-pages';
/** The accounts this deployment lets in: the team's email domain (OIDC_ALLOWED_DOMAINS). */
const TEAM_DOMAIN = 'example.com';
const TEAM_EMAIL = { email: `test-user@${TEAM_DOMAIN}`, email_verified: true };
const ddb = mockDocumentClient();

interface SigningKey {
  privateKey: CryptoKey;
  jwk: JWK;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

let server: Server;
let issuer: string;
let published: SigningKey;
let foreign: SigningKey;
let keysCreate: (typeof import('#lambdas/routes/keys-create'))['handler'];

beforeAll(async () => {
  published = await signingKey('published');
  foreign = await signingKey('foreign');
  server = createServer((request, response) => {
    if (request.url === '/.well-known/openid-configuration') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    } else if (request.url === '/jwks') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [published.jwk] }));
    } else {
      response.writeHead(503).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.CREATE_ACCESS = 'signed-in';
  process.env.OIDC_ISSUER = issuer;
  process.env.OIDC_AUDIENCE = AUDIENCE;
  process.env.OIDC_ALLOWED_DOMAINS = TEAM_DOMAIN;
  keysCreate = (await import('#lambdas/routes/keys-create')).handler;
});

afterAll(async () => {
  delete process.env.CREATE_ACCESS;
  delete process.env.OIDC_ISSUER;
  delete process.env.OIDC_AUDIENCE;
  delete process.env.OIDC_ALLOWED_DOMAINS;
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  ddb.reset();
  ddb
    .on(UpdateCommand)
    .callsFake((input: UpdateCommandInput) => ({ Attributes: { log: (input.ExpressionAttributeValues as { ':now': number[] })[':now'] } }));
  ddb.on(PutCommand).resolves({});
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

interface TokenOptions {
  key?: SigningKey;
  /** The header's typ; unset: none, as Cognito's ID tokens have. */
  typ?: string;
  iss?: string;
  aud?: string | string[];
  sub?: string;
  iat?: number;
  exp?: number;
  nbf?: number;
  /** Other claims: azp, email, groups. */
  claims?: Record<string, unknown>;
}

function token({
  key = published,
  typ,
  iss = issuer,
  aud = AUDIENCE,
  sub = 'test-user',
  iat = nowSeconds(),
  exp = nowSeconds() + 300,
  nbf,
  claims = TEAM_EMAIL,
}: TokenOptions = {}): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.jwk.kid, ...(typ === undefined ? {} : { typ }) })
    .setIssuer(iss)
    .setAudience(aud)
    .setSubject(sub)
    .setIssuedAt(iat)
    .setExpirationTime(exp);
  if (nbf !== undefined) jwt.setNotBefore(nbf);
  return jwt.sign(key.privateKey);
}

const createKey = (headers: Record<string, string> = {}) =>
  invoke(keysCreate, apiEvent({ method: 'POST', path: '/keys', headers, sourceIp: '198.51.100.9' }));

const putItem = () => sentCommands(ddb).find((command) => command.name === 'PutCommand')?.input.Item as Record<string, unknown> | undefined;

describe('POST /keys, signed-in', () => {
  test('a valid token mints a full key, recorded with the hash of its issuer and subject', async () => {
    const response = await createKey(bearer(await token({ sub: 'alice' })));
    expect(response.statusCode).toBe(201);
    const item = putItem();
    expect(item?.subject).toBe(signInSubjectHash(issuer, 'alice'));
    expect(JSON.stringify(item)).not.toContain('alice');
    expect(item).not.toHaveProperty('access');
  });

  test.each([
    ['typ JWT', { typ: 'JWT' }],
    ['several audiences with azp ours', { aud: [AUDIENCE, 'someone-else'], claims: { ...TEAM_EMAIL, azp: AUDIENCE } }],
  ] as [string, TokenOptions][])('an ID token with %s is accepted', async (_, options) => {
    expect((await createKey(bearer(await token(options)))).statusCode).toBe(201);
  });

  test('a token that expired less than 60 s ago is still accepted (clock skew)', async () => {
    expect((await createKey(bearer(await token({ exp: nowSeconds() - 30 })))).statusCode).toBe(201);
  });

  test('without a token: a reveal-only key', async () => {
    const response = await createKey();
    expect(response.statusCode).toBe(201);
    expect(putItem()?.access).toBe(REVEAL_ONLY);
    expect(putItem()).not.toHaveProperty('subject');
  });

  const refusals: [string, () => Promise<string>, string][] = [
    ['expired', () => token({ exp: nowSeconds() - 120 }), 'token expired'],
    ['not valid yet', () => token({ nbf: nowSeconds() + 120 }), 'token is not valid yet'],
    ['for another audience', () => token({ aud: 'someone-else' }), 'token is for another audience'],
    ['from another issuer', () => token({ iss: 'https://issuer.example.com' }), 'token is from another issuer'],
    [
      'signed with a key the issuer does not publish',
      () => token({ key: { ...foreign, jwk: { ...foreign.jwk, kid: 'published' } } }),
      'signature does not verify',
    ],
    ['signed by another issuer, under its own key id', () => token({ key: foreign }), 'signed with a key the issuer does not publish'],
    [
      'tampered (payload changed after signing)',
      async () => {
        const [header, payload, signature] = (await token({ sub: 'mallory' })).split('.');
        const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), sub: 'admin' })).toString(
          'base64url',
        );
        return `${header}.${changed}.${signature}`;
      },
      'signature does not verify',
    ],
    [
      'unsigned (alg: none)',
      async () => {
        const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: issuer, aud: AUDIENCE, sub: 'mallory', exp: nowSeconds() + 300 })}.`;
      },
      'signature algorithm not accepted',
    ],
    ['not a JWT at all', async () => 'svc_' + 'a'.repeat(32), 'malformed token'],
    // OpenID Connect Core 3.1.3.7: what makes a token this client's ID token.
    [
      'for several audiences, ours among them, without azp',
      () => token({ aud: [AUDIENCE, 'someone-else'] }),
      'token names several audiences and no authorized party',
    ],
    ['authorized for another client (azp)', () => token({ claims: { ...TEAM_EMAIL, azp: 'someone-else' } }), 'token was issued to another client'],
    ['that is an access token (typ at+jwt)', () => token({ typ: 'at+jwt' }), 'token is not an ID token'],
    ['with an empty subject', () => token({ sub: '' }), 'token claim sub is missing or invalid'],
    ['issued in the future', () => token({ iat: nowSeconds() + 600 }), 'token is issued in the future'],
    ['issued over a day ago', () => token({ iat: nowSeconds() - 2 * 86_400 }), 'token was issued too long ago'],
  ];

  test.each(refusals)('a token %s: 401 saying so, and no DynamoDB call', async (_, make, reason) => {
    const response = await createKey(bearer(await make()));
    expect(response.statusCode).toBe(401);
    expectErrorBody(response, ERRORS.invalidSignInToken(reason));
    expect(sentCommands(ddb)).toEqual([]);
  });

  test('an Authorization header that is no bearer token: 401, no DynamoDB call', async () => {
    const response = await createKey({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(response.statusCode).toBe(401);
    expectErrorBody(response, ERRORS.invalidSignInToken('send Authorization: Bearer <token>'));
    expect(sentCommands(ddb)).toEqual([]);
  });

  test.each([
    ['another domain', { email: 'someone@gmail.com', email_verified: true }, 'its email domain is not one this deployment allows'],
    ['a subdomain of ours', { email: `someone@evil.${TEAM_DOMAIN}`, email_verified: true }, 'its email domain is not one this deployment allows'],
    ['an unverified email', { email: `someone@${TEAM_DOMAIN}`, email_verified: false }, 'its email is missing or not verified'],
    ['no email', {}, 'its email is missing or not verified'],
  ])('an account with %s: 403 saying so, and no DynamoDB call', async (_, claims, reason) => {
    const response = await createKey(bearer(await token({ claims })));
    expect(response.statusCode).toBe(403);
    expectErrorBody(response, ERRORS.accountNotAllowed(reason));
    expect(sentCommands(ddb)).toEqual([]);
  });

  test('an email domain in another case is the same domain', async () => {
    expect((await createKey(bearer(await token({ claims: { email: 'Test@EXAMPLE.com', email_verified: true } })))).statusCode).toBe(201);
  });

  test.each([
    ['in no allowed group', ['staff']],
    ['without the claim', undefined],
  ])('groups allowed (OIDC_ALLOWED_GROUPS, in the claim OIDC_GROUPS_CLAIM names): an account %s gets 403', async (_, groups) => {
    const before = { ...process.env };
    Object.assign(process.env, { OIDC_ALLOWED_DOMAINS: '', OIDC_ALLOWED_GROUPS: 'onetime,ops', OIDC_GROUPS_CLAIM: 'cognito:groups' });
    try {
      // A handler of its own, for its environment; it reaches no DynamoDB, which this one's mock would not see.
      await jest.isolateModulesAsync(async () => {
        const { handler } = await import('#lambdas/routes/keys-create');
        const claims = groups === undefined ? {} : { 'cognito:groups': groups };
        const response = await invoke(handler, apiEvent({ method: 'POST', path: '/keys', headers: bearer(await token({ claims })) }));
        expect(response.statusCode).toBe(403);
        expectErrorBody(response, ERRORS.accountNotAllowed('it is in none of the groups this deployment allows'));
      });
    } finally {
      process.env = before;
    }
  });

  test("the issuer's JWKS unreachable: 503 saying so, and no DynamoDB call", async () => {
    process.env.OIDC_JWKS_URI = `${issuer}/unavailable-jwks`;
    try {
      await jest.isolateModulesAsync(async () => {
        const { handler } = await import('#lambdas/routes/keys-create');
        const response = await invoke(handler, apiEvent({ method: 'POST', path: '/keys', headers: bearer(await token()) }));
        expect(response.statusCode).toBe(503);
        expectErrorBody(response, ERRORS.issuerUnavailable);
      });
    } finally {
      delete process.env.OIDC_JWKS_URI;
    }
    expect(sentCommands(ddb)).toEqual([]);
  });
});

describe('a reveal-only key', () => {
  const fixture = apiKeyFixture();
  let state: { item: KeyItemState | undefined };
  beforeEach(() => {
    state = { item: keyItem(fixture.pk, { access: REVEAL_ONLY }) };
    serveKeyItem(ddb, state);
  });

  const send = async (module: string, method: string, path: string, body?: object, pathParameters?: Record<string, string>) => {
    const { handler } = (await import(`../../../lambdas/routes/${module}`)) as { handler: Parameters<typeof invoke>[0] };
    return invoke(
      handler,
      apiEvent({
        method,
        path,
        headers: { ...bearer(fixture.key), ...(body ? jsonHeaders() : {}) },
        body: body ? JSON.stringify(body) : null,
        ...(pathParameters ? { pathParameters } : {}),
      }),
    );
  };

  test.each([
    ['secrets-create', 'POST', '/secrets', { data: 'aGVsbG8=' }],
    ['keys-update', 'PATCH', '/keys', { webhook: 'https://hooks.example.com/x' }],
  ] as const)('%s: 403 saying creating needs a signed-in key, after only the counting write', async (module, method, path, body) => {
    const response = await send(module, method, path, body);
    expect(response.statusCode).toBe(403);
    expectErrorBody(response, ERRORS.revealOnlyKey);
    expect(sentCommands(ddb).map((command) => command.name)).toEqual(['UpdateCommand']);
    expect(state.item?.webhook).toBeUndefined();
  });

  test('DELETE /secrets/{id}: 403, it owns no secret to revoke', async () => {
    const id = 'A'.repeat(22);
    const response = await send('secrets-revoke', 'DELETE', `/secrets/${id}`, undefined, { id });
    expect(response.statusCode).toBe(403);
  });

  test('GET /keys: 200, it may read itself', async () => {
    expect((await send('keys-get', 'GET', '/keys')).statusCode).toBe(200);
  });
});
