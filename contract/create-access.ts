/**
 * Who may create secrets (docs/security.md, "Who may create"): a deploy-time choice. `open` is the
 * contract: anyone may mint a key that creates. `signed-in`: POST /keys mints a full key only for
 * a valid token of the deployment's OpenID Connect issuer; without one it mints a reveal-only key.
 */
export const CREATE_ACCESS_MODES = ['open', 'signed-in'] as const;
export type CreateAccessMode = (typeof CREATE_ACCESS_MODES)[number];
export const DEFAULT_CREATE_ACCESS: CreateAccessMode = 'open';

/**
 * What a key may do, as its item stores it. A key without the attribute is a full key: every key
 * of an `open` deployment, and every key minted before the setting existed.
 */
export const REVEAL_ONLY = 'reveal-only';

/**
 * signed-in: the accounts that get a full key, of all those the issuer vouches for (an issuer such
 * as Google vouches for anyone with an account). Each list given must match: the verified email's
 * domain one of `emailDomains`, and one of `groups` in the token's `groupsClaim`. 'any' is the
 * explicit choice of every account, as for the stack's own Cognito pool, whose accounts only an
 * administrator adds.
 */
export type AllowedAccounts =
  'any' | { readonly emailDomains: readonly string[] | undefined; readonly groups: readonly string[] | undefined; readonly groupsClaim: string };

/** The claim that lists a token's groups unless the deployment names another (Entra ID's and Okta's name). */
export const DEFAULT_GROUPS_CLAIM = 'groups';
/** The claim Cognito lists a user's groups in. */
export const COGNITO_GROUPS_CLAIM = 'cognito:groups';

/** Clock skew allowed on a token's exp and nbf, in seconds (the bound: at most 60 s). */
export const TOKEN_CLOCK_SKEW_SECONDS = 60;

/**
 * The oldest an ID token may be (by its iat), in seconds: issuers give them an hour or so, and a
 * day leaves room for one configured longer (Cognito allows up to a day).
 */
export const TOKEN_MAX_AGE_SECONDS = 86_400;

/**
 * Signature algorithms a token may use: asymmetric only, so that no shared secret and no `none`
 * can pass, whatever the token's header says.
 */
export const TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/**
 * The issuer's signing keys are kept per container this long, then fetched again on the next
 * token; a token signed by a key not in the set fetches it at once (at most every 30 s), so a
 * rotation is picked up without waiting.
 */
export const JWKS_CACHE_MS = 60 * 60 * 1000;

/** A JWKS or discovery fetch that takes longer fails the request with 503 rather than the Lambda timeout. */
export const JWKS_FETCH_TIMEOUT_MS = 2_000;

/**
 * Where `onetime login --browser` (and login against a provider without device authorization,
 * such as Cognito) receives the authorization code: a fixed loopback port, since Cognito matches
 * callback URLs exactly. The stack's pool client and local mode's provider register it.
 */
export const CLI_LOOPBACK_PORT = 8976;
export const CLI_LOOPBACK_REDIRECT = `http://localhost:${CLI_LOOPBACK_PORT}/`;
