import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { homedir } from 'node:os';
import path from 'node:path';
import * as oauth from 'oauth4webapi';
import { CLI_LOOPBACK_PORT, CLI_LOOPBACK_REDIRECT } from '../../../contract/create-access';
import { InputError } from '../errors';

/**
 * `onetime login` on a deployment where creating needs signing in (createAccess=signed-in): the
 * OAuth 2.0 device authorization grant against the deployment's OpenID provider, or, where it has
 * none (Cognito) or with --browser, the authorization code flow with PKCE and a redirect to a
 * loopback port (RFC 8252), both with oauth4webapi. The ID token it ends with is kept in the user's config directory, readable by the
 * user alone, until it expires; `onetime key create` spends it on a full key.
 */

/** What the service's pages read (config.json beside them); the CLI reads the same file. */
interface PagesConfig {
  createAccess?: string;
  signIn?: { issuer: string; clientId: string };
}

export interface StoredSignIn {
  /** The site the token is for: its origin, where config.json and the API are. */
  site: string;
  issuer: string;
  idToken: string;
  /** Milliseconds since the epoch. */
  expires: number;
}

/** $XDG_CONFIG_HOME/onetime (default ~/.config/onetime), or %APPDATA%\onetime on Windows. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'onetime');
  return path.join(env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'onetime');
}

const signInFile = (env: NodeJS.ProcessEnv): string => path.join(configDir(env), 'sign-in.json');

const siteOf = (apiUrl: string): string => new URL(apiUrl).origin;

async function signInSettings(apiUrl: string): Promise<{ issuer: string; clientId: string } | undefined> {
  let config: PagesConfig;
  try {
    const response = await fetch(`${siteOf(apiUrl)}/config.json`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    config = (await response.json()) as PagesConfig;
  } catch (error) {
    throw new InputError(`could not read the service's sign-in settings at ${siteOf(apiUrl)}/config.json (${(error as Error).message})`);
  }
  return config.createAccess === 'signed-in' ? config.signIn : undefined;
}

/** Local mode's provider speaks plain HTTP on this machine; oauth4webapi asks for https anywhere else. */
const requestOptions = (issuer: URL) =>
  issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname) ? { [oauth.allowInsecureRequests]: true } : {};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The `exp` of an ID token the provider just sent over TLS (its signature is the service's to check). */
function expiryOf(idToken: string): number {
  const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
  if (typeof payload.exp !== 'number') throw new InputError('the sign-in provider sent an ID token without an expiry');
  return payload.exp * 1000;
}

/** How long `onetime login` waits for the person to finish in the browser. */
const LOGIN_WAIT_MS = 10 * 60 * 1000;

type Flow = (
  server: oauth.AuthorizationServer,
  client: oauth.Client,
  options: ReturnType<typeof requestOptions>,
  tell: (line: string) => void,
) => Promise<string>;

/** RFC 8628: a link and a code to confirm in any browser, then the token endpoint polled until it is. */
const deviceFlow: Flow = async (server, client, options, tell) => {
  const device = await oauth.processDeviceAuthorizationResponse(
    server,
    client,
    await oauth.deviceAuthorizationRequest(server, client, oauth.None(), { scope: 'openid email' }, options),
  );
  tell(`To sign in, open ${device.verification_uri_complete ?? device.verification_uri} and confirm the code ${device.user_code}`);
  let intervalMs = (device.interval ?? 5) * 1000;
  const deadline = Date.now() + Math.min(device.expires_in * 1000, LOGIN_WAIT_MS);
  while (Date.now() < deadline) {
    await sleep(intervalMs);
    try {
      const tokens = await oauth.processDeviceCodeResponse(
        server,
        client,
        await oauth.deviceCodeGrantRequest(server, client, oauth.None(), device.device_code, options),
      );
      if (!tokens.id_token) throw new InputError('the sign-in provider sent no ID token');
      return tokens.id_token;
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError && error.error === 'authorization_pending') continue;
      // RFC 8628 §3.5: wait 5 s longer from now on.
      if (error instanceof oauth.ResponseBodyError && error.error === 'slow_down') {
        intervalMs += 5000;
        continue;
      }
      throw error;
    }
  }
  throw new InputError('the sign-in code expired before it was confirmed: run onetime login again');
};

const isLoopbackPeer = (request: IncomingMessage): boolean => ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(request.socket.remoteAddress ?? '');

/** The first request to the loopback port that carries our state: the provider's redirect back. */
function awaitRedirect(state: string): { url: Promise<URL>; close: () => void } {
  let resolveUrl: (url: URL) => void = () => undefined;
  let rejectUrl: (error: Error) => void = () => undefined;
  const url = new Promise<URL>((resolve, reject) => {
    resolveUrl = resolve;
    rejectUrl = reject;
  });
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const received = new URL(request.url ?? '/', CLI_LOOPBACK_REDIRECT);
    if (!isLoopbackPeer(request) || received.searchParams.get('state') !== state) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('onetime: you may close this tab and go back to the terminal.\n');
    resolveUrl(received);
  });
  server.once('error', (error: NodeJS.ErrnoException) =>
    rejectUrl(
      new InputError(error.code === 'EADDRINUSE' ? `port ${CLI_LOOPBACK_PORT} is taken: onetime login --browser needs it free` : error.message),
    ),
  );
  // Both loopback families: a browser may resolve localhost to either. The handler refuses other peers.
  server.listen({ port: CLI_LOOPBACK_PORT, host: '::', ipv6Only: false });
  const timer = setTimeout(() => rejectUrl(new InputError('nobody finished signing in within 10 minutes: run onetime login again')), LOGIN_WAIT_MS);
  return {
    url,
    close: () => {
      clearTimeout(timer);
      server.closeAllConnections();
      server.close();
    },
  };
}

/** RFC 8252: the authorization code flow with PKCE, the browser sent back to this machine's loopback port. */
const browserFlow: Flow = async (server, client, options, tell) => {
  if (!server.authorization_endpoint) throw new InputError('the sign-in provider names no authorization endpoint');
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const authorize = new URL(server.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    scope: 'openid email',
    redirect_uri: CLI_LOOPBACK_REDIRECT,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const redirect = awaitRedirect(state);
  try {
    tell(`To sign in, open ${authorize.toString()}`);
    const parameters = oauth.validateAuthResponse(server, client, await redirect.url, state);
    const response = await oauth.authorizationCodeGrantRequest(server, client, oauth.None(), parameters, CLI_LOOPBACK_REDIRECT, verifier, options);
    const tokens = await oauth.processAuthorizationCodeResponse(server, client, response, { expectedNonce: nonce, requireIdToken: true });
    if (!tokens.id_token) throw new InputError('the sign-in provider sent no ID token');
    return tokens.id_token;
  } finally {
    redirect.close();
  }
};

/**
 * Signs in: with the device grant where the provider offers it (unless `browser`), otherwise with
 * a redirect to the loopback port; tells the person where to go (`tell`), waits for them, and
 * stores the ID token (0600). Returns what was stored.
 */
export async function logIn(
  apiUrl: string,
  tell: (line: string) => void,
  { browser = false, env = process.env }: { browser?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<StoredSignIn> {
  const settings = await signInSettings(apiUrl);
  if (!settings) throw new InputError(`${siteOf(apiUrl)} does not need signing in: any key it mints may create`);
  const issuer = new URL(settings.issuer);
  const options = requestOptions(issuer);
  const server = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...options }));
  const flow = server.device_authorization_endpoint && !browser ? deviceFlow : browserFlow;
  let idToken: string;
  try {
    idToken = await flow(server, { client_id: settings.clientId }, options, tell);
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
      throw new InputError(`sign-in refused: ${error.error_description ?? error.error}`);
    }
    throw error;
  }
  const stored: StoredSignIn = { site: siteOf(apiUrl), issuer: settings.issuer, idToken, expires: expiryOf(idToken) };
  await store(stored, env);
  return stored;
}

/** Written readable by its owner alone, in a folder only its owner may enter. */
async function store(signIn: StoredSignIn, env: NodeJS.ProcessEnv): Promise<void> {
  const file = signInFile(env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(signIn), { mode: 0o600 });
  // A file that existed keeps its mode through writeFile: set it again.
  await chmod(file, 0o600);
}

/**
 * The stored sign-in for the site of `apiUrl`; undefined when there is none for it. An expired one
 * is an error: the person asked for a key that creates, and would silently get one that cannot.
 */
export async function storedSignIn(apiUrl: string, env: NodeJS.ProcessEnv = process.env, now = Date.now()): Promise<StoredSignIn | undefined> {
  let stored: StoredSignIn;
  try {
    stored = JSON.parse(await readFile(signInFile(env), 'utf8')) as StoredSignIn;
  } catch {
    return undefined;
  }
  if (stored.site !== siteOf(apiUrl)) return undefined;
  if (stored.expires <= now) throw new InputError('your sign-in has ended: run onetime login again');
  return stored;
}

export async function logOut(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  try {
    await rm(signInFile(env));
    return true;
  } catch {
    return false;
  }
}
