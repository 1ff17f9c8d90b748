import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as path from 'node:path';
import { text } from 'node:stream/consumers';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { CLI_LOOPBACK_REDIRECT } from '#contract/create-access';
import { forkService } from './child-service';
import { LOOPBACK } from './free-port';
import { LOCAL_SIGN_IN } from './sign-in-accounts';

/**
 * `CREATE_ACCESS=signed-in npm start` without OIDC_ISSUER: a real OpenID provider (oidc-provider) with
 * one account, LOCAL_SIGN_IN.testUser. Only the login page is ours: the provider's own takes any name.
 */

export interface LocalSignInProvider {
  readonly issuer: string;
  stop(): Promise<void>;
}

export interface LocalSignInOptions {
  port: number;
  /** The origins the share page is served from: its redirect URI is `<origin>/`. */
  pageOrigins: readonly string[];
  /** A private JWK as JSON to sign with (LOCAL_OIDC_KEY); unset: a fresh key per start. */
  signingKey: string | undefined;
}

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** LOCAL_OIDC_KEY: tests sign tokens the provider would not issue (expired, another issuer) with its own key. */
function givenSigningKey(text: string): JWK {
  try {
    const key: unknown = JSON.parse(text);
    if (typeof key === 'object' && key !== null && 'd' in key && 'kid' in key) return key as JWK;
  } catch {
    // Not JSON: refused below, and never repeated, as it is a private key.
  }
  throw new Error('LOCAL_OIDC_KEY must be a private JWK with a kid, as JSON (the value given is not shown: it is a key)');
}

async function freshSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `local-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
}

function configuration(options: LocalSignInOptions, signingKey: JWK): Configuration {
  // The share page, and the CLI's loopback (onetime login --browser).
  const redirectUris = [...options.pageOrigins.map((origin) => `${origin}/`), CLI_LOOPBACK_REDIRECT];
  const client = (clientId: string) => ({
    client_id: clientId,
    // A public client, as a single-page app and a CLI are: no secret, PKCE instead.
    token_endpoint_auth_method: 'none' as const,
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'],
    response_types: ['code' as const],
  });
  return {
    clients: [client(LOCAL_SIGN_IN.clientId), client(LOCAL_SIGN_IN.otherClientId)],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The ID token carries the scopes' claims, as Cognito's and Google's do: POST /keys checks its email.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      deviceFlow: {
        enabled: true,
        userCodeInputSource: (ctx, form, _out, error) => {
          ctx.body = page(
            'Connect a device',
            `${error ? '<p role="alert">That code is not valid.</p>' : ''}<p>Enter the code your device shows.</p>${form}<button type="submit" form="op.deviceInputForm">Continue</button>`,
          );
        },
        userCodeConfirmSource: (ctx, form, _client, _device, userCode) => {
          ctx.body = page(
            'Confirm the code',
            `${form}<p>Code: <strong>${escapeHtml(userCode)}</strong></p><button type="submit" form="op.deviceConfirmForm">Continue</button><button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Cancel</button>`,
          );
        },
        successSource: (ctx) => {
          ctx.body = page('Signed in', '<p>You are signed in on your device. You may close this page.</p>');
        },
      },
    },
    pkce: { required: () => true },
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    // In seconds.
    ttl: { IdToken: 3600, AccessToken: 3600, Interaction: 600, Session: 86_400, Grant: 86_400, DeviceCode: 600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // First-party clients: the test user is never asked to consent.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return provider.Grant.find(grantId);
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      session.grantIdFor(client.clientId, grant.jti);
      return grant;
    },
    findAccount: (_ctx, sub) =>
      sub === LOCAL_SIGN_IN.testUser.subject
        ? { accountId: sub, claims: () => ({ sub, email: LOCAL_SIGN_IN.testUser.email, email_verified: true, name: LOCAL_SIGN_IN.testUser.name }) }
        : undefined,
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Sign-in failed', `<p>${escapeHtml(String(out.error_description ?? out.error))}</p>`);
    },
  };
}

const loginPage = (uid: string, failed: boolean): string =>
  page(
    'Sign in to onetime (local)',
    `${failed ? '<p role="alert">Wrong name or password.</p>' : ''}` +
      `<form method="post" action="/interaction/${escapeHtml(uid)}/login">` +
      `<p><label>Name <input name="login" autocomplete="username" required></label></p>` +
      `<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>` +
      `<p><button type="submit">Sign in</button></p></form>`,
  );

const HTML_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

type OidcProvider = InstanceType<(typeof import('oidc-provider'))['default']>;

/** Our login page: the test user's name and password, checked here; anything else is shown the form again. */
async function interaction(provider: OidcProvider, request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  const tried = request.method === 'POST' && pathname.endsWith('/login');
  if (tried) {
    const form = new URLSearchParams(await text(request));
    const { login, password, subject } = LOCAL_SIGN_IN.testUser;
    if (form.get('login') === login && form.get('password') === password) {
      await provider.interactionFinished(request, response, { login: { accountId: subject } }, { mergeWithLastSubmission: false });
      return;
    }
  }
  response.writeHead(tried ? 401 : 200, HTML_HEADERS).end(loginPage(details.uid, tried));
}

export async function startLocalSignInProvider(options: LocalSignInOptions): Promise<LocalSignInProvider> {
  // ESM only: loaded with import(), as the functions' handlers load Middy.
  const { default: Provider } = await import('oidc-provider');
  const server: Server = createServer();
  // Loopback only: a fixed user signs in here.
  await once(server.listen(options.port, LOOPBACK), 'listening');
  const { port } = server.address() as { port: number };
  const issuer = `http://localhost:${port}`;
  const provider = new Provider(
    issuer,
    configuration(options, options.signingKey === undefined ? await freshSigningKey() : givenSigningKey(options.signingKey)),
  );
  const callback = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const pathname = new URL(request.url ?? '/', issuer).pathname;
    if (!pathname.startsWith('/interaction/')) {
      // Koa's handler answers the request itself, errors included.
      void callback(request, response);
      return;
    }
    interaction(provider, request, response, pathname).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(400, HTML_HEADERS);
      response.end(page('Sign-in failed', `<p>${escapeHtml(error instanceof Error ? error.message : 'unknown error')}</p>`));
    });
  });
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * In a process of its own, as a deployment's issuer is, and without `--conditions=import` (Middy's):
 * under it, tsx hands koa's required JSON files to Node as JavaScript, and the provider cannot load.
 */
export async function startSignInProviderProcess(options: LocalSignInOptions): Promise<LocalSignInProvider> {
  const { ready: issuer, stop } = await forkService<string>(
    path.join(__dirname, 'sign-in-provider-entry.ts'),
    options,
    { execArgv: process.execArgv.filter((flag) => !flag.startsWith('--conditions=')) },
    { name: "the local OpenID provider's process", lost: 'signing in no longer works' },
  );
  return { issuer, stop };
}
