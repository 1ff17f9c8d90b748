import { CREATE_ACCESS_MODES, DEFAULT_CREATE_ACCESS } from '#contract/create-access';
import { ENV } from '../definitions/env';
import { optional, readEnvironment, withDefault } from './environment';
import { httpUrlField, oneOfField, textField } from './fields';

/**
 * Who may create (definitions/create-access.ts), as POST /keys reads it from its environment: the
 * stack sets it from context createAccess and oidcIssuer/oidcAudience (or its own user pool's),
 * local mode from CREATE_ACCESS and its own OpenID provider.
 */

type Env = Readonly<Record<string, string | undefined>>;

export const createAccessMode = () => oneOfField(CREATE_ACCESS_MODES);

export type CreateAccess =
  | { readonly mode: 'open' }
  | {
      readonly mode: 'signed-in';
      readonly issuer: string;
      readonly audience: string;
      /** Unset: the issuer's discovery document names it. */
      readonly jwksUri: string | undefined;
    };

const createAccessEnv = () => ({
  [ENV.createAccess]: withDefault(createAccessMode(), DEFAULT_CREATE_ACCESS),
  [ENV.oidcIssuer]: optional(httpUrlField()),
  [ENV.oidcAudience]: optional(textField()),
  [ENV.oidcJwksUri]: optional(httpUrlField()),
});

export function readCreateAccess(env: Env = process.env): CreateAccess {
  const settings = readEnvironment(createAccessEnv(), env);
  if (settings[ENV.createAccess] === 'open') return { mode: 'open' };
  const issuer = settings[ENV.oidcIssuer];
  const audience = settings[ENV.oidcAudience];
  if (issuer === undefined || audience === undefined)
    throw new Error(`${ENV.createAccess}=signed-in needs ${ENV.oidcIssuer} and ${ENV.oidcAudience}`);
  return { mode: 'signed-in', issuer, audience, jwksUri: settings[ENV.oidcJwksUri] };
}
