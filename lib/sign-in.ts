import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccountRecovery, Mfa, OAuthScope, UserPool, type UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { CLI_LOOPBACK_REDIRECT } from '#contract/create-access';

/** The OpenID Connect issuer whose tokens POST /keys accepts, as the functions and the pages need it. */
export interface SignInIssuer {
  readonly issuer: string;
  /** What the tokens' aud must be. */
  readonly audience: string;
  /** The pages' (and the CLI's) public client at the issuer. */
  readonly clientId: string;
  /** Known for the stack's own pool; unset: the function reads it from the issuer's discovery document. */
  readonly jwksUri?: string;
}

/** The team's own provider, as the deployment names it. */
export interface TeamIssuer extends Omit<SignInIssuer, 'jwksUri'> {
  /** Origins besides the issuer's that the share page reaches when it signs in (its token endpoint's, say). */
  readonly connectOrigins: readonly string[];
}

export interface SignInProps {
  /** The team's own provider; unset: a Cognito user pool this construct creates. */
  readonly issuer: TeamIssuer | undefined;
  /** Where the share page is: the pool's app client sends the browser back there. */
  readonly siteUrl: string;
}

/** The Cognito domain prefix of the stack's hosted sign-in: unique in the region by the stack's name and account. */
const hostedDomainPrefix = (stack: Stack): string => `${stack.stackName.toLowerCase()}-${stack.account}`;

/**
 * The origins the share page reaches when it signs in (discovery and token endpoint), for its
 * Content-Security-Policy: the team's issuer's and those the deployment adds (a token endpoint
 * on another origin, as Google's), or Cognito's issuer and hosted sign-in domain.
 */
export function signInOrigins(scope: Construct, issuer: SignInProps['issuer']): string[] {
  if (issuer) return [...new Set([new URL(issuer.issuer).origin, ...issuer.connectOrigins])];
  const stack = Stack.of(scope);
  return [`https://cognito-idp.${stack.region}.${stack.urlSuffix}`, `https://${hostedDomainPrefix(stack)}.auth.${stack.region}.amazoncognito.com`];
}

/** ID tokens live an hour: the share page signs in again after that, and a minted key lives on. */
const TOKEN_VALIDITY = Duration.hours(1);

/**
 * createAccess=signed-in: the team's own issuer as given, or a Cognito user pool with its hosted
 * sign-in: no self-sign-up (an administrator adds the team's people), MFA optional (TOTP), and a
 * public app client for the pages with the authorization code grant (Cognito requires PKCE of
 * public clients that send it, and the pages always do).
 */
export class SignIn extends Construct {
  readonly issuer: SignInIssuer;
  readonly userPool?: UserPool;
  readonly client?: UserPoolClient;

  constructor(scope: Construct, id: string, { issuer, siteUrl }: SignInProps) {
    super(scope, id);
    if (issuer) {
      this.issuer = issuer;
      return;
    }
    const stack = Stack.of(this);
    this.userPool = new UserPool(this, 'Users', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // The people who may create secrets: a redeploy must not lose them.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.userPool.addDomain('HostedSignIn', {
      // Unique in the region: the stack's name and the account.
      cognitoDomain: { domainPrefix: hostedDomainPrefix(stack) },
    });
    this.client = this.userPool.addClient('Pages', {
      generateSecret: false,
      authFlows: {},
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        // The share page, and `onetime login` (Cognito has no device authorization).
        callbackUrls: [`${siteUrl}/`, CLI_LOOPBACK_REDIRECT],
        logoutUrls: [`${siteUrl}/`],
      },
      idTokenValidity: TOKEN_VALIDITY,
      accessTokenValidity: TOKEN_VALIDITY,
      preventUserExistenceErrors: true,
    });
    const poolIssuer = `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${this.userPool.userPoolId}`;
    this.issuer = {
      issuer: poolIssuer,
      // Cognito's ID token names the app client as its audience.
      audience: this.client.userPoolClientId,
      clientId: this.client.userPoolClientId,
      jwksUri: `${poolIssuer}/.well-known/jwks.json`,
    };
  }
}
