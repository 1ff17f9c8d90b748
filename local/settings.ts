import { mkdirSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import * as z from 'zod/mini';
import { createAccessOf } from '#lambdas/config/create-access';
import { readFunctionSettings } from '#lambdas/config/environment';
import { httpUrl, integer, oneOf, readSettings, schemaOf, text } from '#lambdas/config/fields';
import { SETTINGS, settingRows } from '#lambdas/config/settings';
import { ENV } from '#lambdas/definitions/env';
import { LOOPBACK } from './free-port';

/**
 * `npm start`'s environment (docs/local-mode.md), checked before DynamoDB Local's seconds of start-up.
 * The registry's `local` rows are checked with the functions' fields, then read again by the handlers.
 */

const port = () => integer({ min: 0, max: 65535 });

const ipAddress = () => schemaOf({ what: 'an IP address (0.0.0.0: every interface)', parse: (given) => (isIP(given) === 0 ? undefined : given) });

/** The HTTP port when PORT is unset. */
export const DEFAULT_PORT = 3000;

const localEnv = () =>
  z.object({
    /** 0: any free port. */
    PORT: z._default(port(), DEFAULT_PORT),
    /** Where the API and pages listen; the other servers stay on loopback. */
    LISTEN_HOST: z._default(ipAddress(), LOOPBACK),
    /** Default: any free port. */
    DYNAMODB_LOCAL_PORT: z._default(port(), 0),
    [ENV.dynamodbEndpoint]: z.optional(httpUrl()),
    DATA_DIR: z.optional(text()),
    LOCAL_REQUEST_LOG: z._default(oneOf(['on', 'off']), 'on'),
    /** CREATE_ACCESS=signed-in without OIDC_ISSUER: the local OpenID provider's port; default: any free port. */
    LOCAL_OIDC_PORT: z._default(port(), 0),
    /** A private JWK (JSON) for the local provider to sign with; default: a fresh key per start. */
    LOCAL_OIDC_KEY: z.optional(text()),
    ...Object.fromEntries(
      settingRows((row) => row.in?.includes('local') ?? false).map(([name, row]) => [row.env ?? name, z.optional(schemaOf(row.field))]),
    ),
  });

export type LocalSettings = ReturnType<typeof readLocalSettings>;

export function readLocalSettings(env: Readonly<Record<string, string | undefined>> = process.env) {
  const settings = readSettings(localEnv(), { read: (name) => env[name] });
  const localSignIn = env[SETTINGS.createAccess.env] === 'signed-in' && !env[SETTINGS.oidcIssuer.env];
  // CREATE_ACCESS with the OIDC_* variables POST /keys reads: told now, not at its first request
  // (local sign-in sets them once its provider is up).
  if (!localSignIn) createAccessOf(readFunctionSettings('keys-create', env));
  return {
    port: settings.PORT,
    listenHost: settings.LISTEN_HOST,
    dynamoDbLocalPort: settings.DYNAMODB_LOCAL_PORT,
    dynamoDbEndpoint: settings[ENV.dynamodbEndpoint],
    /** As given: relative to the folder `npm start` was run from (prepareDataDir). None: in memory. */
    dataDir: settings.DATA_DIR,
    requestLog: settings.LOCAL_REQUEST_LOG === 'on',
    /** Set when CREATE_ACCESS=signed-in names no OIDC_ISSUER: local mode runs its own provider; its key is parsed there, never repeated. */
    localSignIn: localSignIn ? { port: settings.LOCAL_OIDC_PORT, signingKey: settings.LOCAL_OIDC_KEY } : undefined,
  };
}

/**
 * DATA_DIR made absolute from where `npm start` was typed (npm says so in INIT_CWD; DynamoDB Local runs
 * from its package's folder) and created. Undefined: keep data in memory.
 */
export function prepareDataDir(value: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!value) return undefined;
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), value);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(`DATA_DIR=${value}: cannot create the folder ${dataDir} (${reason}); set DATA_DIR to a folder you can write to`, {
      cause: error,
    });
  }
  return dataDir;
}
