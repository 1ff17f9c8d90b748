/** Who may create secrets, a deploy-time choice (docs/security.md, "Who may create"). */
export const CREATE_ACCESS_MODES = ['open', 'signed-in'] as const;
export type CreateAccessMode = (typeof CREATE_ACCESS_MODES)[number];
export const DEFAULT_CREATE_ACCESS: CreateAccessMode = 'open';

/** What a key may do, as its item stores it; without the attribute, a full key. */
export const REVEAL_ONLY = 'reveal-only';

/** signed-in: the accounts that get a full key; each list given must match, 'any' is every account the issuer vouches for. */
export type AllowedAccounts =
  'any' | { readonly emailDomains: readonly string[] | undefined; readonly groups: readonly string[] | undefined; readonly groupsClaim: string };

/** The claim that lists a token's groups unless the deployment names another (Entra ID's and Okta's name). */
export const DEFAULT_GROUPS_CLAIM = 'groups';
export const COGNITO_GROUPS_CLAIM = 'cognito:groups';

/** Clock skew allowed on a token's exp and nbf, in seconds. */
export const TOKEN_CLOCK_SKEW_SECONDS = 60;

/** The oldest an ID token may be (by its iat), in seconds: Cognito allows up to a day. */
export const TOKEN_MAX_AGE_SECONDS = 86_400;

/** Signature algorithms a token may use: asymmetric only, so that no shared secret and no `none` can pass. */
export const TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/** The issuer's signing keys are kept this long; a token by an unknown key fetches them at once. */
export const JWKS_CACHE_MS = 60 * 60 * 1000;

/** A JWKS or discovery fetch that takes longer fails the request with 503 rather than the Lambda timeout. */
export const JWKS_FETCH_TIMEOUT_MS = 2_000;

/** Where `onetime login --browser` receives the code: a fixed port, since Cognito matches callback URLs exactly. */
export const CLI_LOOPBACK_PORT = 8976;
export const CLI_LOOPBACK_REDIRECT = `http://localhost:${CLI_LOOPBACK_PORT}/`;
