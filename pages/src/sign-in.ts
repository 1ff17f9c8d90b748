import * as oauth from 'oauth4webapi';
import type { PagesConfig } from '../../contract/site';
import { pagesConfig } from './service';

/** The share page's sign-in on a `signed-in` deployment: code flow with PKCE (oauth4webapi); the ID token is not kept. */

export type SignIn = NonNullable<PagesConfig['signIn']>;

/** What the redirect to the provider must find again when it comes back: in sessionStorage, for this tab only. */
const PENDING = 'onetime.signIn';

interface Pending {
  verifier: string;
  state: string;
  nonce: string;
}

/** The deployment's sign-in, or undefined when anyone may create (an `open` deployment, or no config.json). */
export async function signInOf(): Promise<SignIn | undefined> {
  const config = await pagesConfig();
  return config.createAccess === 'signed-in' ? config.signIn : undefined;
}

/** Local mode's provider speaks plain HTTP on this machine; oauth4webapi asks for https anywhere else. */
const isLoopback = (url: URL): boolean => url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

const requestOptions = (issuer: URL) => (isLoopback(issuer) ? { [oauth.allowInsecureRequests]: true } : {});

async function authorizationServer(signIn: SignIn): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(signIn.issuer);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...requestOptions(issuer) }));
}

/** The share page itself: where the provider sends the browser back. */
const redirectUri = (): string => `${location.origin}/`;

/** Leaves for the provider's sign-in page; the browser comes back to this page with a code. */
export async function startSignIn(signIn: SignIn): Promise<void> {
  const server = await authorizationServer(signIn);
  if (!server.authorization_endpoint) throw new Error('the provider names no authorization endpoint');
  const pending: Pending = { verifier: oauth.generateRandomCodeVerifier(), state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce() };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(server.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: signIn.clientId,
    response_type: 'code',
    scope: 'openid email',
    redirect_uri: redirectUri(),
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url);
}

/** This page was loaded by the provider's redirect back (a code or an error, and our state). */
export const isSignInReturn = (): boolean => {
  const parameters = new URLSearchParams(location.search);
  return parameters.has('state') && (parameters.has('code') || parameters.has('error'));
};

/** Completes a sign-in this page started, checking state, issuer and claims; the address bar is cleaned either way. */
export async function finishSignIn(signIn: SignIn): Promise<string> {
  const returned = new URL(location.href);
  history.replaceState(null, '', redirectUri());
  const stored = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  if (stored === null) throw new Error('no sign-in was started in this tab');
  const pending = JSON.parse(stored) as Pending;
  const server = await authorizationServer(signIn);
  const client: oauth.Client = { client_id: signIn.clientId };
  const parameters = oauth.validateAuthResponse(server, client, returned, pending.state);
  const issuer = new URL(signIn.issuer);
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    oauth.None(),
    parameters,
    redirectUri(),
    pending.verifier,
    requestOptions(issuer),
  );
  const tokens = await oauth.processAuthorizationCodeResponse(server, client, response, { expectedNonce: pending.nonce, requireIdToken: true });
  if (!tokens.id_token) throw new Error('the provider sent no ID token');
  return tokens.id_token;
}
