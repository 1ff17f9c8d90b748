import { CREATE_ACCESS_MODES, DEFAULT_CREATE_ACCESS, DEFAULT_GROUPS_CLAIM, type AllowedAccounts } from '#contract/create-access';
import { ENV } from '../definitions/env';
import { optional, readEnvironment, withDefault } from './environment';
import { flagField, httpUrlField, oneOfField, textField, type Field } from './fields';

/**
 * Who may create (definitions/create-access.ts), as POST /keys reads it from its environment: the
 * stack sets it from context createAccess and oidcIssuer/oidcAudience (or its own user pool's),
 * local mode from CREATE_ACCESS and its own OpenID provider.
 */

type Env = Readonly<Record<string, string | undefined>>;

export const createAccessMode = () => oneOfField(CREATE_ACCESS_MODES);

/** Comma-separated names without empty ones, such as email domains (lowercased) or groups. */
export const nameListField = (what: string, { lowercase = false } = {}): Field<readonly string[]> => ({
  what: `a comma-separated list of ${what}`,
  parse: (given) => {
    const names = given.split(',').map((name) => (lowercase ? name.trim().toLowerCase() : name.trim()));
    return names.every((name) => name !== '') ? names : undefined;
  },
});

export const emailDomainsField = () => nameListField('email domains (example.com)', { lowercase: true });
export const groupsField = () => nameListField('group names or ids');

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

const createAccessEnv = () => ({
  [ENV.createAccess]: withDefault(createAccessMode(), DEFAULT_CREATE_ACCESS),
  [ENV.oidcIssuer]: optional(httpUrlField()),
  [ENV.oidcAudience]: optional(textField()),
  [ENV.oidcJwksUri]: optional(httpUrlField()),
  [ENV.oidcAllowedDomains]: optional(emailDomainsField()),
  [ENV.oidcAllowedGroups]: optional(groupsField()),
  [ENV.oidcGroupsClaim]: withDefault(textField(), DEFAULT_GROUPS_CLAIM),
  [ENV.oidcAnyAccount]: withDefault(flagField(), false),
});

/** The variables that tell POST /keys `allowed`, as the stack and local mode set them. */
export function allowedAccountsEnv(allowed: AllowedAccounts): Record<string, string> {
  if (allowed === 'any') return { [ENV.oidcAnyAccount]: 'true' };
  return {
    ...(allowed.emailDomains ? { [ENV.oidcAllowedDomains]: allowed.emailDomains.join(',') } : {}),
    ...(allowed.groups ? { [ENV.oidcAllowedGroups]: allowed.groups.join(','), [ENV.oidcGroupsClaim]: allowed.groupsClaim } : {}),
  };
}

export function readCreateAccess(env: Env = process.env): CreateAccess {
  const settings = readEnvironment(createAccessEnv(), env);
  if (settings[ENV.createAccess] === 'open') return { mode: 'open' };
  const issuer = settings[ENV.oidcIssuer];
  const audience = settings[ENV.oidcAudience];
  if (issuer === undefined || audience === undefined)
    throw new Error(`${ENV.createAccess}=signed-in needs ${ENV.oidcIssuer} and ${ENV.oidcAudience}`);
  const emailDomains = settings[ENV.oidcAllowedDomains];
  const groups = settings[ENV.oidcAllowedGroups];
  const anyAccount = settings[ENV.oidcAnyAccount];
  const lists = `${ENV.oidcAllowedDomains} or ${ENV.oidcAllowedGroups}`;
  if (anyAccount === (emailDomains !== undefined || groups !== undefined)) {
    throw new Error(
      anyAccount
        ? `${ENV.oidcAnyAccount}=true goes without ${lists}`
        : `${ENV.createAccess}=signed-in needs ${lists} (or ${ENV.oidcAnyAccount}=true): else every account the issuer vouches for gets a full key`,
    );
  }
  const allowedAccounts: AllowedAccounts = anyAccount ? 'any' : { emailDomains, groups, groupsClaim: settings[ENV.oidcGroupsClaim] };
  return { mode: 'signed-in', issuer, audience, jwksUri: settings[ENV.oidcJwksUri], allowedAccounts };
}
