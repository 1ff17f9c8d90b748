import * as z from 'zod/mini';
import { CREATE_ACCESS_MODES, DEFAULT_CREATE_ACCESS } from '../definitions/create-access';
import { ENV } from '../definitions/env';
import { httpUrl, oneOf, readSettings, text } from './fields';

/**
 * Who may create (definitions/create-access.ts), as POST /keys reads it from its environment: the
 * stack sets it from context createAccess and oidcIssuer/oidcAudience (or its own user pool's),
 * local mode from CREATE_ACCESS and its own OpenID provider.
 */

type Env = Readonly<Record<string, string | undefined>>;

export const createAccessMode = () => oneOf(CREATE_ACCESS_MODES);

export type CreateAccess =
  | { readonly mode: 'open' }
  | {
      readonly mode: 'signed-in';
      readonly issuer: string;
      readonly audience: string;
      /** Unset: the issuer's discovery document names it. */
      readonly jwksUri: string | undefined;
    };

const CREATE_ACCESS_ENV = z
  .object({
    [ENV.createAccess]: z._default(createAccessMode(), DEFAULT_CREATE_ACCESS),
    [ENV.oidcIssuer]: z.optional(httpUrl()),
    [ENV.oidcAudience]: z.optional(text()),
    [ENV.oidcJwksUri]: z.optional(httpUrl()),
  })
  .check(
    z.refine(
      (settings) => settings[ENV.createAccess] === 'open' || (settings[ENV.oidcIssuer] !== undefined && settings[ENV.oidcAudience] !== undefined),
      {
        error: `${ENV.createAccess}=signed-in needs ${ENV.oidcIssuer} and ${ENV.oidcAudience}`,
      },
    ),
  );

export function readCreateAccess(env: Env = process.env): CreateAccess {
  const settings = readSettings(CREATE_ACCESS_ENV, { read: (name) => env[name] });
  const issuer = settings[ENV.oidcIssuer];
  const audience = settings[ENV.oidcAudience];
  if (settings[ENV.createAccess] === 'open' || issuer === undefined || audience === undefined) return { mode: 'open' };
  return { mode: 'signed-in', issuer, audience, jwksUri: settings[ENV.oidcJwksUri] };
}
