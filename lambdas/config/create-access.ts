import type { FunctionSettings } from './settings';
import { SETTINGS } from './settings';

/**
 * Who may create (definitions/create-access.ts), as POST /keys reads it from its environment: the
 * stack sets it from context createAccess and oidcIssuer/oidcAudience (or its own user pool's),
 * local mode from CREATE_ACCESS and its own OpenID provider.
 */

export type CreateAccess =
  | { readonly mode: 'open' }
  | {
      readonly mode: 'signed-in';
      readonly issuer: string;
      readonly audience: string;
      /** Unset: the issuer's discovery document names it. */
      readonly jwksUri: string | undefined;
    };

type AccessSettings = Pick<FunctionSettings<'keys-create'>, 'createAccess' | 'oidcIssuer' | 'oidcAudience' | 'oidcJwksUri'>;

export function createAccessOf({ createAccess, oidcIssuer, oidcAudience, oidcJwksUri }: AccessSettings): CreateAccess {
  if (createAccess === 'open') return { mode: 'open' };
  if (oidcIssuer === undefined || oidcAudience === undefined)
    throw new Error(`${SETTINGS.createAccess.env}=signed-in needs ${SETTINGS.oidcIssuer.env} and ${SETTINGS.oidcAudience.env}`);
  return { mode: 'signed-in', issuer: oidcIssuer, audience: oidcAudience, jwksUri: oidcJwksUri };
}
