import { createECDH } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { ERRORS } from '#contract/errors';
import { GATE } from '#contract/limits';
import { LOCAL_SIGN_IN } from '#local/sign-in-accounts';
import { USAGE_HEADERS } from '#local/dynamodb-usage';
import { api, freshClientAddress } from '../support/api';
import { testEnv } from '../support/environment';
import { TSX_LOADER, startLocalServer, startTsxServer, type LocalServer } from '../support/local-server';
import { signIn } from '../support/sign-in';

/**
 * `CREATE_ACCESS=signed-in` local mode with its real OpenID provider (oidc-provider): tokens the
 * provider issues after the test user signs in, and every kind of token POST /keys must refuse.
 * A second provider, run alone, is "another issuer". Expired and wrong-issuer tokens are ones the
 * provider would never issue: they are signed with its own key, given to it as LOCAL_OIDC_KEY.
 */

let server: LocalServer;
let otherIssuer: LocalServer;
let issuer: string;
let providerKey: JWK;

beforeAll(async () => {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  providerKey = { ...(await exportJWK(privateKey)), kid: 'local-test', alg: 'RS256', use: 'sig' };
  server = await startLocalServer({
    DYNAMODB_ENDPOINT: testEnv('dynamodbEndpoint'),
    CREATE_ACCESS: 'signed-in',
    LOCAL_OIDC_KEY: JSON.stringify(providerKey),
    // Its request log counts each request's DynamoDB calls in a response header.
    LOCAL_REQUEST_LOG: 'on',
  });
  // Without local mode's loader flag (local/sign-in-provider.ts says why).
  otherIssuer = await startTsxServer(
    'local/sign-in-provider-entry.ts',
    /OpenID provider at (\S+)/,
    {
      LOCAL_OIDC_OPTIONS: JSON.stringify({ port: 0, pageOrigins: [pageOrigin()] }),
    },
    TSX_LOADER,
  );
  issuer = /OpenID provider at (\S+),/.exec(server.output())?.[1] ?? '';
  expect(issuer).toMatch(/^http:\/\/localhost:\d+$/);
});

afterAll(async () => {
  await Promise.all([server?.stop(), otherIssuer?.stop()]);
});

const pageOrigin = () => new URL(server.baseUrl).origin;

/** The DynamoDB calls local mode counted for the request. */
const dynamoDbCalls = (response: { headers: Record<string, string> }): number => Number(response.headers[USAGE_HEADERS.calls]);

const postKeys = (token?: string, localAddress = freshClientAddress()) =>
  api<{ key: string }>('POST', '/keys', {
    baseUrl: server.baseUrl,
    localAddress,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A token signed with the provider's own key, with claims it would not issue. */
async function withProviderKey(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ sub: LOCAL_SIGN_IN.testUser.subject, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: providerKey.kid ?? '' })
    .sign(await importJWK(providerKey, 'RS256'));
}

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('a token the provider issued to the test user', () => {
  it('mints a full key: it creates, and a reveal-only key claims what it created', async () => {
    const token = await signIn({ issuer, pageOrigin: pageOrigin() });
    const created = await postKeys(token);
    expect(created.status).toBe(201);
    const fullKey = created.body.key;

    const secret = await api<{ id: string }>('POST', '/secrets', { baseUrl: server.baseUrl, key: fullKey, json: { data: 'aGVsbG8=', views: 2 } });
    expect(secret.status).toBe(201);

    const recipient = (await postKeys()).body.key;
    const claimed = await api<{ data: string }>('GET', `/secrets/${secret.body.id}`, { baseUrl: server.baseUrl, key: recipient });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data).toBe('aGVsbG8=');

    expect((await api('DELETE', `/secrets/${secret.body.id}`, { baseUrl: server.baseUrl, key: fullKey })).status).toBe(200);
  });
});

it('signing in adds no DynamoDB call: POST /keys, a create and a claim make the calls they make on an open deployment', async () => {
  const open = testEnv('baseUrl');
  const signedIn = await postKeys(await signIn({ issuer, pageOrigin: pageOrigin() }));
  const openKey = await api<{ key: string }>('POST', '/keys', { baseUrl: open, localAddress: freshClientAddress() });
  expect(dynamoDbCalls(signedIn)).toBe(dynamoDbCalls(openKey));

  const created = await api<{ id: string }>('POST', '/secrets', { baseUrl: server.baseUrl, key: signedIn.body.key, json: { data: 'aGVsbG8=' } });
  const openCreated = await api<{ id: string }>('POST', '/secrets', { baseUrl: open, key: openKey.body.key, json: { data: 'aGVsbG8=' } });
  expect(dynamoDbCalls(created)).toBe(dynamoDbCalls(openCreated));

  const revealOnly = (await postKeys()).body.key;
  const claimed = await api('GET', `/secrets/${created.body.id}`, { baseUrl: server.baseUrl, key: revealOnly });
  const openClaimed = await api('GET', `/secrets/${openCreated.body.id}`, { baseUrl: open, key: openKey.body.key });
  expect(claimed.status).toBe(200);
  expect(dynamoDbCalls(claimed)).toBe(dynamoDbCalls(openClaimed));
  expect([dynamoDbCalls(signedIn), dynamoDbCalls(created), dynamoDbCalls(claimed)]).toEqual([2, 2, 2]);
});

describe('tokens POST /keys refuses: 401 naming why, and nothing written', () => {
  const cases: [string, () => Promise<string>, string][] = [
    [
      'expired beyond the 60 s of clock skew',
      () => withProviderKey({ iss: issuer, aud: LOCAL_SIGN_IN.clientId, iat: nowSeconds() - 3700, exp: nowSeconds() - 100 }),
      'token expired',
    ],
    [
      'issued to another application (audience)',
      () => signIn({ issuer, pageOrigin: pageOrigin(), clientId: LOCAL_SIGN_IN.otherClientId }),
      'token is for another audience',
    ],
    [
      'naming another issuer, signed with this issuer’s key',
      () => withProviderKey({ iss: 'https://issuer.example', aud: LOCAL_SIGN_IN.clientId, iat: nowSeconds(), exp: nowSeconds() + 600 }),
      'token is from another issuer',
    ],
    [
      'with a tampered signature',
      async () => {
        const [header, payload, signature = ''] = (await signIn({ issuer, pageOrigin: pageOrigin() })).split('.');
        const bytes = Buffer.from(signature, 'base64url');
        bytes[0] = (bytes[0] ?? 0) ^ 0xff;
        return `${header}.${payload}.${bytes.toString('base64url')}`;
      },
      'signature does not verify',
    ],
    [
      'with its claims changed after signing (another subject)',
      async () => {
        const [header, payload = '', signature] = (await signIn({ issuer, pageOrigin: pageOrigin() })).split('.');
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        return `${header}.${base64url({ ...claims, sub: 'mallory' })}.${signature}`;
      },
      'signature does not verify',
    ],
    [
      'unsigned (alg none)',
      async () =>
        `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ iss: issuer, aud: LOCAL_SIGN_IN.clientId, sub: 'alice', iat: nowSeconds(), exp: nowSeconds() + 600 })}.`,
      'signature algorithm not accepted',
    ],
    [
      'issued by another OpenID provider to a client of the same name',
      () => signIn({ issuer: /OpenID provider at (\S+)/.exec(otherIssuer.output())?.[1] ?? '', pageOrigin: pageOrigin() }),
      'signed with a key the issuer does not publish',
    ],
    ['that is no JWT at all', async () => 'not-a-token', 'malformed token'],
  ];

  it.each(cases)('a token %s', async (_name, token, reason) => {
    const refused = await postKeys(await token());
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: ERRORS.invalidSignInToken(reason) });
    expect(dynamoDbCalls(refused)).toBe(0);
  });

  it('an Authorization header that is no bearer token', async () => {
    const refused = await api('POST', '/keys', {
      baseUrl: server.baseUrl,
      localAddress: freshClientAddress(),
      headers: { authorization: 'Basic YWxpY2U6cHc=' },
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: ERRORS.invalidSignInToken('send Authorization: Bearer <token>') });
    expect(dynamoDbCalls(refused)).toBe(0);
  });
});

it("a valid token of an account outside local mode's allowed domain: 403 naming why, and nothing written", async () => {
  const outsider = { email: 'mallory@example.com', email_verified: true, aud: LOCAL_SIGN_IN.clientId };
  const refused = await postKeys(await withProviderKey({ ...outsider, iss: issuer, iat: nowSeconds(), exp: nowSeconds() + 600 }));
  expect(refused.status).toBe(403);
  expect(refused.body).toEqual({ error: ERRORS.accountNotAllowed('its email domain is not one this deployment allows') });
  expect(dynamoDbCalls(refused)).toBe(0);
});

describe('a reveal-only key (POST /keys without a token)', () => {
  let fullKey: string;
  let secretId: string;

  beforeAll(async () => {
    fullKey = (await postKeys(await signIn({ issuer, pageOrigin: pageOrigin() }))).body.key;
    secretId = (await api<{ id: string }>('POST', '/secrets', { baseUrl: server.baseUrl, key: fullKey, json: { data: 'c2VjcmV0', views: 3 } })).body
      .id;
  });

  const revealOnlyKey = async (): Promise<string> => {
    const created = await postKeys();
    expect(created.status).toBe(201);
    return created.body.key;
  };

  it('may claim a secret, read itself and revoke itself', async () => {
    const key = await revealOnlyKey();
    const claimed = await api<{ data: string }>('GET', `/secrets/${secretId}`, { baseUrl: server.baseUrl, key });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data).toBe('c2VjcmV0');
    expect((await api('GET', '/keys', { baseUrl: server.baseUrl, key })).status).toBe(200);
    expect((await api('DELETE', '/keys', { baseUrl: server.baseUrl, key })).status).toBe(200);
    expect((await api('GET', '/keys', { baseUrl: server.baseUrl, key })).status).toBe(401);
  });

  it('may not create a secret, set a webhook or revoke a secret: 403, and nothing changes', async () => {
    const key = await revealOnlyKey();
    const create = await api('POST', '/secrets', { baseUrl: server.baseUrl, key, json: { data: 'bm9wZQ==' } });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({ error: ERRORS.revealOnlyKey });
    // The request is counted against the key's rate limit; nothing is written for it.
    expect(dynamoDbCalls(create)).toBe(1);

    const webhook = await api('PATCH', '/keys', { baseUrl: server.baseUrl, key, json: { webhook: 'https://hooks.example/onetime' } });
    expect(webhook.status).toBe(403);
    expect(webhook.body).toEqual({ error: ERRORS.revealOnlyKey });
    expect((await api<{ webhook?: string }>('GET', '/keys', { baseUrl: server.baseUrl, key })).body.webhook).toBeUndefined();

    const revoke = await api('DELETE', `/secrets/${secretId}`, { baseUrl: server.baseUrl, key });
    expect(revoke.status).toBe(403);
    expect(revoke.body).toEqual({ error: ERRORS.revealOnlyKey });
    // The secret is still there for its recipients.
    expect((await api('GET', `/secrets/${secretId}`, { baseUrl: server.baseUrl, key })).status).toBe(200);
  });

  it('may answer a request a signed-in key made, but may not make one', async () => {
    const key = await revealOnlyKey();
    const publicKey = createECDH('prime256v1').generateKeys().toString('base64url');
    const asked = await api('POST', '/requests', { baseUrl: server.baseUrl, key, json: { publicKey } });
    expect(asked.status).toBe(403);
    expect(asked.body).toEqual({ error: ERRORS.revealOnlyKey });

    const request = await api<{ id: string }>('POST', '/requests', {
      baseUrl: server.baseUrl,
      key: fullKey,
      json: { publicKey, note: 'the staging password' },
    });
    expect(request.status).toBe(201);
    expect((await api('GET', `/requests/${request.body.id}`, { baseUrl: server.baseUrl, key })).status).toBe(200);
    const answered = await api('POST', `/requests/${request.body.id}`, { baseUrl: server.baseUrl, key, json: { data: 'YW5zd2Vy' } });
    expect(answered.status).toBe(201);
  });

  it('is refused with the same 403 when it repeats a create with an Idempotency-Key', async () => {
    const key = await revealOnlyKey();
    const headers = { 'idempotency-key': `reveal-only-${Date.now()}-repeat` };
    for (let attempt = 0; attempt < 2; attempt++) {
      const create = await api('POST', '/secrets', { baseUrl: server.baseUrl, key, json: { data: 'bm9wZQ==' }, headers });
      expect(create.status).toBe(403);
      expect(create.body).toEqual({ error: ERRORS.revealOnlyKey });
    }
  });
});

it('the pages are told to sign in, at this issuer, for this audience', async () => {
  const config = await api('GET', '/config.json', { baseUrl: new URL(server.baseUrl).origin });
  expect(config.status).toBe(200);
  expect(config.body).toEqual({
    createAccess: 'signed-in',
    passphraseAttempts: GATE.attempts,
    signIn: { issuer, clientId: LOCAL_SIGN_IN.clientId, audience: LOCAL_SIGN_IN.clientId },
  });
});
