import { isIP } from 'node:net';
import * as z from 'zod/mini';
import { flag, httpUrl, integer, oneOf, readSettings, schemaOf, siteUrl, text } from '#lambdas/config/fields';
import { keysPerIpPerHour, logLevel, storedMiBPerDay, webhookRetryBaseMs } from '#lambdas/config/service-settings';
import { readCreateAccess } from '#lambdas/config/create-access';
import { ENV } from '#lambdas/definitions/env';
import { LOOPBACK } from './free-port';

/**
 * `npm start`'s environment (docs/local-mode.md), read once before anything starts, so that a bad
 * value is told before DynamoDB Local's seconds of start-up. The functions' own variables are
 * checked here with the functions' fields, then left in the environment, where the handlers read
 * them again as they do on Lambda.
 */

const port = () => integer({ min: 0, max: 65535 });

const ipAddress = () => schemaOf({ what: 'an IP address (0.0.0.0: every interface)', parse: (given) => (isIP(given) === 0 ? undefined : given) });

/** The HTTP port when PORT is unset. */
export const DEFAULT_PORT = 3000;

const LOCAL_ENV = z.object({
  /** 0: any free port. */
  PORT: z._default(port(), DEFAULT_PORT),
  /** Where the API and pages listen; the other servers stay on loopback. */
  LISTEN_HOST: z._default(ipAddress(), LOOPBACK),
  /** Default: any free port. */
  DYNAMODB_LOCAL_PORT: z._default(port(), 0),
  [ENV.dynamodbEndpoint]: z.optional(httpUrl()),
  DATA_DIR: z.optional(text()),
  LOCAL_REQUEST_LOG: z._default(oneOf(['on', 'off']), 'on'),
  /** Default: http://localhost:<PORT>, once PORT is resolved. */
  [ENV.siteUrl]: z.optional(siteUrl()),
  [ENV.keysPerIpPerHour]: z.optional(schemaOf(keysPerIpPerHour())),
  [ENV.webhookAllowLoopback]: z.optional(flag()),
  [ENV.webhookRetryBaseMs]: z.optional(schemaOf(webhookRetryBaseMs())),
  [ENV.logLevel]: z.optional(schemaOf(logLevel())),
  [ENV.storedMiBPerKeyPerDay]: z.optional(schemaOf(storedMiBPerDay())),
  [ENV.storedMiBPerAddressPerDay]: z.optional(schemaOf(storedMiBPerDay())),
  /** CREATE_ACCESS=signed-in without OIDC_ISSUER: the local OpenID provider's port; default: any free port. */
  LOCAL_OIDC_PORT: z._default(port(), 0),
  /** A private JWK (JSON) for the local provider to sign with; default: a fresh key per start. */
  LOCAL_OIDC_KEY: z.optional(text()),
});

/** Local sign-in: a real OpenID provider on this machine (local/sign-in-provider.ts). */
export interface LocalSignInSettings {
  readonly port: number;
  /** LOCAL_OIDC_KEY as given: parsed by the provider, which never repeats it. */
  readonly signingKey: string | undefined;
}

export interface LocalSettings {
  readonly port: number;
  /** The API's and pages' address: loopback unless LISTEN_HOST opens them to the network. */
  readonly listenHost: string;
  readonly dynamoDbLocalPort: number;
  /** A DynamoDB already running; none: start DynamoDB Local. */
  readonly dynamoDbEndpoint: string | undefined;
  /** As given: relative to the folder `npm start` was run from (data-dir.ts). None: in memory. */
  readonly dataDir: string | undefined;
  readonly requestLog: boolean;
  /** Set when CREATE_ACCESS=signed-in names no OIDC_ISSUER: local mode runs its own. */
  readonly localSignIn: LocalSignInSettings | undefined;
}

export function readLocalSettings(env: Readonly<Record<string, string | undefined>> = process.env): LocalSettings {
  const settings = readSettings(LOCAL_ENV, { read: (name) => env[name] });
  const localSignIn = env[ENV.createAccess] === 'signed-in' && !env[ENV.oidcIssuer];
  // CREATE_ACCESS and the OIDC_* variables POST /keys reads: told now, not at its first request
  // (local sign-in sets them once its provider is up).
  if (!localSignIn) readCreateAccess(env);
  return {
    port: settings.PORT,
    listenHost: settings.LISTEN_HOST,
    dynamoDbLocalPort: settings.DYNAMODB_LOCAL_PORT,
    dynamoDbEndpoint: settings[ENV.dynamodbEndpoint],
    dataDir: settings.DATA_DIR,
    requestLog: settings.LOCAL_REQUEST_LOG === 'on',
    localSignIn: localSignIn ? { port: settings.LOCAL_OIDC_PORT, signingKey: settings.LOCAL_OIDC_KEY } : undefined,
  };
}
