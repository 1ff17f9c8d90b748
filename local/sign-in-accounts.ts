/**
 * Local mode's OpenID provider (local/sign-in-provider.ts, docs/local-mode.md "Signed-in"): its
 * one test user and its clients. Local only: a deployment signs in with its own issuer.
 */
export const LOCAL_SIGN_IN = {
  testUser: { login: 'alice', password: 'onetime-local', subject: 'alice', email: 'alice@example.test', name: 'Alice Example' },
  /** The test user's email domain: the one local mode lets in unless told otherwise (OIDC_ALLOWED_DOMAINS). */
  emailDomain: 'example.test',
  /** The share page's and the CLI's client, whose id is the audience POST /keys accepts. */
  clientId: 'onetime',
  /** Another application of the same provider: its tokens name another audience, and are refused. */
  otherClientId: 'another-app',
  /** The scopes the pages and the CLI ask for. */
  scope: 'openid email',
} as const;
