import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import * as oauth from 'oauth4webapi';
import { InputError } from '../errors';

/**
 * `onetime login` on a deployment where creating needs signing in (createAccess=signed-in): the
 * OAuth 2.0 device authorization grant against the deployment's OpenID provider, with
 * oauth4webapi. The ID token it ends with is kept in the user's config directory, readable by the
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

/**
 * Signs in with the device authorization grant: tells the person where to go and which code to
 * enter (`tell`), polls until they have, and stores the ID token (0600). Returns what was stored.
 */
export async function logIn(apiUrl: string, tell: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<StoredSignIn> {
  const settings = await signInSettings(apiUrl);
  if (!settings) throw new InputError(`${siteOf(apiUrl)} does not need signing in: any key it mints may create`);
  const issuer = new URL(settings.issuer);
  const options = requestOptions(issuer);
  const server = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...options }));
  if (!server.device_authorization_endpoint) {
    throw new InputError(`the sign-in provider ${settings.issuer} offers no device authorization: sign in on the share page instead`);
  }
  const client: oauth.Client = { client_id: settings.clientId };
  const device = await oauth.processDeviceAuthorizationResponse(
    server,
    client,
    await oauth.deviceAuthorizationRequest(server, client, oauth.None(), { scope: 'openid email' }, options),
  );
  tell(`To sign in, open ${device.verification_uri_complete ?? device.verification_uri} and confirm the code ${device.user_code}`);

  let intervalMs = (device.interval ?? 5) * 1000;
  const deadline = Date.now() + device.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(intervalMs);
    try {
      const tokens = await oauth.processDeviceCodeResponse(
        server,
        client,
        await oauth.deviceCodeGrantRequest(server, client, oauth.None(), device.device_code, options),
      );
      if (!tokens.id_token) throw new InputError('the sign-in provider sent no ID token');
      const stored: StoredSignIn = { site: siteOf(apiUrl), issuer: settings.issuer, idToken: tokens.id_token, expires: expiryOf(tokens.id_token) };
      await store(stored, env);
      return stored;
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError && error.error === 'authorization_pending') continue;
      // RFC 8628 §3.5: wait 5 s longer from now on.
      if (error instanceof oauth.ResponseBodyError && error.error === 'slow_down') {
        intervalMs += 5000;
        continue;
      }
      if (error instanceof oauth.ResponseBodyError) throw new InputError(`sign-in refused: ${error.error_description ?? error.error}`);
      throw error;
    }
  }
  throw new InputError('the sign-in code expired before it was confirmed: run onetime login again');
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
