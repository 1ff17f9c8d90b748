import { createHash, randomBytes } from 'node:crypto';
import { LOCAL_SIGN_IN } from '#local/sign-in-accounts';

/**
 * Signs in to local mode's OpenID provider as a browser and a public client would: the
 * authorization code flow with PKCE, the provider's login form filled with the test user's name
 * and password, and the code exchanged for tokens. Plain HTTP, redirects followed by hand with a
 * cookie jar, so that a test holds a token the real provider issued.
 */

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  device_authorization_endpoint?: string;
}

export const discover = async (issuer: string): Promise<Discovery> =>
  (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Discovery;

/** The cookies a browser would keep across the provider's redirects (its paths are not told apart). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** One step of the browser's journey: the request, its cookies kept, and where it redirects (if it does). */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<{ response: Response; location: string | undefined }> {
  const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
  jar.keep(response);
  const location = response.headers.get('location');
  return { response, location: location ? new URL(location, url).toString() : undefined };
}

export interface Credentials {
  login: string;
  password: string;
}

export const TEST_USER: Credentials = { login: LOCAL_SIGN_IN.testUser.login, password: LOCAL_SIGN_IN.testUser.password };

/** Where the provider's redirects ended: a URL outside it, or a page of its own that is no login form. */
export type Journey = { left: string } | { page: string };

/**
 * Follows redirects from `url` until one leaves the provider or a page of its own ends the
 * journey; at its login page, submits `credentials`.
 */
export async function passLogin(jar: CookieJar, issuer: string, url: string, credentials: Credentials): Promise<Journey> {
  let next = url;
  for (let step = 0; step < 10; step++) {
    if (!next.startsWith(issuer)) return { left: next };
    const { response, location } = await browse(jar, next);
    if (location) {
      next = location;
      continue;
    }
    const page = await response.text();
    const action = /<form method="post" action="([^"]+\/login)"/.exec(page)?.[1];
    if (!action) return { page };
    const submitted = await browse(jar, new URL(action, issuer).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: credentials.login, password: credentials.password }).toString(),
    });
    if (!submitted.location) throw new Error(`sign-in refused (${submitted.response.status}): ${(await submitted.response.text()).slice(0, 300)}`);
    next = submitted.location;
  }
  throw new Error('the provider kept redirecting');
}

export interface SignInOptions {
  issuer: string;
  /** The share page's origin: the redirect URI is `<origin>/`. */
  pageOrigin: string;
  clientId?: string;
  credentials?: Credentials;
}

/** The ID token of a full authorization code flow with PKCE. */
export async function signIn({ issuer, pageOrigin, clientId = LOCAL_SIGN_IN.clientId, credentials = TEST_USER }: SignInOptions): Promise<string> {
  const discovery = await discover(issuer);
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const redirectUri = `${pageOrigin}/`;
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: LOCAL_SIGN_IN.scope,
    redirect_uri: redirectUri,
    state,
    nonce: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();

  const journey = await passLogin(new CookieJar(), issuer, authorize.toString(), credentials);
  if ('page' in journey) throw new Error(`the provider stopped at a page: ${journey.page.slice(0, 300)}`);
  const back = new URL(journey.left);
  if (back.searchParams.get('state') !== state) throw new Error(`the provider came back without our state: ${back.search}`);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`the provider came back without a code: ${back.search}`);

  const tokens = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await tokens.json()) as { id_token?: string; error?: string };
  if (!body.id_token) throw new Error(`no ID token: ${JSON.stringify(body)}`);
  return body.id_token;
}

/**
 * The person's side of the device authorization grant: opens the verification link the CLI
 * printed, confirms the code, signs in. Returns the provider's last page.
 */
export async function confirmDevice(issuer: string, verificationUrl: string, credentials: Credentials = TEST_USER): Promise<string> {
  const jar = new CookieJar();
  let { response, location } = await browse(jar, verificationUrl);
  // The provider's pages before the login: one that submits itself (a browser runs its script),
  // then the confirmation form; each is submitted with its fields as a browser would.
  for (let step = 0; step < 4 && !location; step++) {
    const page = await response.text();
    const form = /<form[^>]*method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
    if (!form) throw new Error(`no form to submit at ${response.url}: ${page.slice(0, 300)}`);
    const fields = new URLSearchParams(
      [...(form[2] ?? '').matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((match): [string, string] => [
        match[1] ?? '',
        match[2] ?? '',
      ]),
    );
    ({ response, location } = await browse(jar, new URL(form[1] ?? '', issuer).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
    }));
  }
  if (!location) throw new Error(`the confirmation was refused (${response.status})`);
  const journey = await passLogin(jar, issuer, location, credentials);
  if (!('page' in journey)) throw new Error(`the device flow left the provider for ${journey.left}`);
  return journey.page;
}
