import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type ProtectedHeaderParameters } from 'jose';
import {
  JWKS_CACHE_MS,
  JWKS_FETCH_TIMEOUT_MS,
  TOKEN_ALGORITHMS,
  TOKEN_CLOCK_SKEW_SECONDS,
  TOKEN_MAX_AGE_SECONDS,
  type AllowedAccounts,
} from '#contract/create-access';
import { accountRefusal } from '../rules/allowed-accounts';

/**
 * Verifies the sign-in tokens of createAccess=signed-in as OpenID Connect Core 3.1.3.7 validates
 * an ID token, with `jose`: the signature against the issuer's published keys (JWKS), then iss,
 * aud, exp, nbf and iat (not in the future, at most TOKEN_MAX_AGE_SECONDS old) with at most
 * TOKEN_CLOCK_SKEW_SECONDS of skew; then what jose has no option for (idTokenProblem), and
 * whether the account is one the deployment lets in (rules/allowed-accounts.ts). The key
 * set is fetched on the first token a container sees and kept (JWKS_CACHE_MS), so a warm
 * POST /keys verifies without a network call.
 */

export interface TokenIssuer {
  readonly issuer: string;
  readonly audience: string;
  /** Unset: read from the issuer's discovery document, once per container. */
  readonly jwksUri: string | undefined;
  /** Of the accounts the issuer vouches for, those that get a full key. */
  readonly allowedAccounts: AllowedAccounts;
}

export type TokenVerdict =
  | { outcome: 'valid'; issuer: string; subject: string }
  /** The token is not one this deployment accepts; `reason` says why, in a client's words. */
  | { outcome: 'invalid'; reason: string }
  /** A valid token of an account the deployment does not let in; `reason` says why. */
  | { outcome: 'not-allowed'; reason: string }
  /** The issuer's keys (or discovery document) could not be fetched: nothing can be said of the token. */
  | { outcome: 'unavailable' };

class IssuerUnavailable extends Error {}

const DISCOVERY_PATH = '/.well-known/openid-configuration';

async function discoveredJwksUri(issuer: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${issuer.replace(/\/+$/, '')}${DISCOVERY_PATH}`, { signal: AbortSignal.timeout(JWKS_FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw new IssuerUnavailable('discovery document unreachable', { cause: error });
  }
  if (!response.ok) throw new IssuerUnavailable(`discovery document answered ${response.status}`);
  const document = (await response.json().catch(() => undefined)) as { issuer?: unknown; jwks_uri?: unknown } | undefined;
  // OpenID Connect Discovery §4.3: the document must name the very issuer it was fetched for.
  if (document?.issuer !== issuer || typeof document.jwks_uri !== 'string') {
    throw new IssuerUnavailable('discovery document does not name this issuer and a jwks_uri');
  }
  return document.jwks_uri;
}

/** One key set per issuer per container; a failed discovery is tried again on the next token. */
const keySets = new Map<string, Promise<JWTVerifyGetKey>>();

function keySetOf(issuer: TokenIssuer): Promise<JWTVerifyGetKey> {
  const cacheKey = `${issuer.issuer} ${issuer.jwksUri ?? ''}`;
  let keySet = keySets.get(cacheKey);
  if (!keySet) {
    keySet = (async () =>
      createRemoteJWKSet(new URL(issuer.jwksUri ?? (await discoveredJwksUri(issuer.issuer))), {
        timeoutDuration: JWKS_FETCH_TIMEOUT_MS,
        cacheMaxAge: JWKS_CACHE_MS,
      }))();
    keySet.catch(() => keySets.delete(cacheKey));
    keySets.set(cacheKey, keySet);
  }
  return keySet;
}

/** What a client is told for each of jose's refusals; anything else about the token is "malformed". */
function reasonOf(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return error.claim === 'iat' ? 'token was issued too long ago' : 'token expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iat' && error.reason === 'check_failed') return 'token is issued in the future';
    if (error.claim === 'aud') return 'token is for another audience';
    if (error.claim === 'iss') return 'token is from another issuer';
    if (error.claim === 'nbf') return 'token is not valid yet';
    return `token claim ${error.claim} is missing or invalid`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature does not verify';
  if (error instanceof errors.JWKSNoMatchingKey) return 'signed with a key the issuer does not publish';
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return 'signature algorithm not accepted';
  return 'malformed token';
}

const isFetchFailure = (error: unknown): boolean =>
  error instanceof IssuerUnavailable ||
  error instanceof errors.JWKSTimeout ||
  error instanceof errors.JWKSInvalid ||
  // jose's own "Expected 200 OK from the JSON Web Key Set HTTP response", and fetch's network errors.
  (error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC') ||
  error instanceof TypeError;

/**
 * What makes a verified token this client's ID token, where jose has no option: its `typ` option
 * would require the header, which Cognito's ID tokens leave out; nor does it check azp or an
 * empty sub.
 */
function idTokenProblem(header: ProtectedHeaderParameters, payload: JWTPayload, audience: string): string | undefined {
  if (header.typ !== undefined && !/^(application\/)?jwt$/i.test(header.typ)) return 'token is not an ID token';
  if (typeof payload.sub !== 'string' || payload.sub === '') return 'token claim sub is missing or invalid';
  const severalAudiences = Array.isArray(payload.aud) && payload.aud.length > 1;
  if (payload.azp === undefined) return severalAudiences ? 'token names several audiences and no authorized party' : undefined;
  return payload.azp === audience ? undefined : 'token was issued to another client';
}

export async function verifySignInToken(token: string, issuer: TokenIssuer): Promise<TokenVerdict> {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, await keySetOf(issuer), {
      issuer: issuer.issuer,
      audience: issuer.audience,
      clockTolerance: TOKEN_CLOCK_SKEW_SECONDS,
      maxTokenAge: TOKEN_MAX_AGE_SECONDS,
      algorithms: [...TOKEN_ALGORITHMS],
      requiredClaims: ['sub', 'exp'],
    });
    const problem = idTokenProblem(protectedHeader, payload, issuer.audience);
    if (problem !== undefined) return { outcome: 'invalid', reason: problem };
    const refusal = accountRefusal(payload, issuer.allowedAccounts);
    if (refusal !== undefined) return { outcome: 'not-allowed', reason: refusal };
    return { outcome: 'valid', issuer: issuer.issuer, subject: String(payload.sub) };
  } catch (error) {
    if (isFetchFailure(error)) return { outcome: 'unavailable' };
    if (error instanceof errors.JOSEError) return { outcome: 'invalid', reason: reasonOf(error) };
    throw error;
  }
}
