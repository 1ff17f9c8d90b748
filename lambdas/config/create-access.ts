import type { AllowedAccounts } from '#contract/create-access';
import type { FunctionSettings } from './settings';
import { SETTINGS } from './settings';

/**
 * Who may create (contract/create-access.ts), as POST /keys reads it from its environment: the
 * stack sets it from context createAccess, oidcIssuer/oidcAudience (or its own user pool's) and the
 * allow-list, local mode from CREATE_ACCESS and its own OpenID provider.
 */

export type CreateAccess =
  | { readonly mode: 'open' }
  | {
      readonly mode: 'signed-in';
      readonly issuer: string;
      readonly audience: string;
      /** Unset: the issuer's discovery document names it. */
      readonly jwksUri: string | undefined;
      readonly allowedAccounts: AllowedAccounts;
    };

type AccessSettings = Pick<
  FunctionSettings<'keys-create'>,
  'createAccess' | 'oidcIssuer' | 'oidcAudience' | 'oidcJwksUri' | 'oidcAllowedDomains' | 'oidcAllowedGroups' | 'oidcGroupsClaim' | 'oidcAnyAccount'
>;

export function createAccessOf(settings: AccessSettings): CreateAccess {
  const { createAccess, oidcIssuer: issuer, oidcAudience: audience, oidcAllowedDomains: emailDomains, oidcAllowedGroups: groups } = settings;
  const env = (name: keyof AccessSettings) => SETTINGS[name].env;
  if (createAccess === 'open') return { mode: 'open' };
  if (issuer === undefined || audience === undefined)
    throw new Error(`${env('createAccess')}=signed-in needs ${env('oidcIssuer')} and ${env('oidcAudience')}`);
  const anyAccount = settings.oidcAnyAccount;
  const lists = `${env('oidcAllowedDomains')} or ${env('oidcAllowedGroups')}`;
  if (anyAccount === (emailDomains !== undefined || groups !== undefined)) {
    throw new Error(
      anyAccount
        ? `${env('oidcAnyAccount')}=true goes without ${lists}`
        : `${env('createAccess')}=signed-in needs ${lists} (or ${env('oidcAnyAccount')}=true): else every account the issuer vouches for gets a full key`,
    );
  }
  const allowedAccounts: AllowedAccounts = anyAccount ? 'any' : { emailDomains, groups, groupsClaim: settings.oidcGroupsClaim };
  return { mode: 'signed-in', issuer, audience, jwksUri: settings.oidcJwksUri, allowedAccounts };
}

/** The settings that tell POST /keys `allowed`, as the stack sets them (lib/secrets-stack.ts). */
export const allowedAccountsSettings = (allowed: AllowedAccounts) =>
  allowed === 'any'
    ? { oidcAnyAccount: true }
    : { oidcAllowedDomains: allowed.emailDomains, oidcAllowedGroups: allowed.groups, oidcGroupsClaim: allowed.groups && allowed.groupsClaim };
