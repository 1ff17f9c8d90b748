import type { Node } from 'constructs';
import * as z from 'zod/mini';
import { readSettings, schemaOf, together } from '#lambdas/config/fields';
import { type FunctionName, type NamesIn, type SettingValue, type SettingValues, settingRows } from '#lambdas/config/settings';
import { COGNITO_GROUPS_CLAIM, DEFAULT_GROUPS_CLAIM, type AllowedAccounts } from '#contract/create-access';

/**
 * What a deployment may choose, read from CDK context (`cdk.json` or `-c key=value`): every row of
 * the settings registry (lambdas/config/settings.ts) applying `in` context, under its own name.
 */
type ContextName = NamesIn<'context'>;
type Context = { [Name in ContextName]: SettingValue<Name> };

const contextSchema = () => {
  const shape = settingRows((row) => row.in?.includes('context') ?? false).map(([name, row]) => {
    const schema = schemaOf(row.field);
    return [name, row.default === undefined ? z.optional(schema) : z._default(schema, row.default)] as const;
  });
  return z.object(Object.fromEntries(shape) as unknown as { [Name in ContextName]: z.ZodMiniType<Context[Name], unknown> }).check(
    together('domainName', 'certificateArn'),
    together('oidcIssuer', 'oidcAudience'),
    together('oidcIssuer', 'oidcClientId'),
    z.refine((settings) => settings.oidcConnectOrigins === undefined || settings.oidcIssuer !== undefined, {
      error: "oidcConnectOrigins goes with oidcIssuer: the stack's own Cognito pool needs none",
    }),
    z.refine((settings) => !settings.oidcAnyAccount || (settings.oidcAllowedDomains ?? settings.oidcAllowedGroups) === undefined, {
      error: 'oidcAnyAccount=true goes without oidcAllowedDomains and oidcAllowedGroups',
    }),
    z.refine(
      (settings) =>
        settings.createAccess !== 'signed-in' ||
        settings.oidcIssuer === undefined ||
        settings.oidcAnyAccount ||
        (settings.oidcAllowedDomains ?? settings.oidcAllowedGroups) !== undefined,
      {
        error:
          'createAccess=signed-in with oidcIssuer needs oidcAllowedDomains, oidcAllowedGroups or oidcAnyAccount=true: else every account the issuer vouches for gets a full key',
      },
    ),
  );
};

type AccountContext = Pick<Context, 'oidcAllowedDomains' | 'oidcAllowedGroups' | 'oidcGroupsClaim' | 'oidcAnyAccount'>;

/**
 * The stack's own pool lets in every account by default: only an administrator adds one (no
 * self-sign-up). Its groups are in Cognito's claim unless the deployment names another.
 */
function allowedAccounts(
  ownPool: boolean,
  { oidcAllowedDomains, oidcAllowedGroups, oidcGroupsClaim, oidcAnyAccount }: AccountContext,
): AllowedAccounts {
  if (oidcAnyAccount || (ownPool && (oidcAllowedDomains ?? oidcAllowedGroups) === undefined)) return 'any';
  return {
    emailDomains: oidcAllowedDomains,
    groups: oidcAllowedGroups,
    groupsClaim: oidcGroupsClaim ?? (ownPool ? COGNITO_GROUPS_CLAIM : DEFAULT_GROUPS_CLAIM),
  };
}

/** The team's own provider, when the deployment names one. */
const teamIssuer = ({ oidcIssuer, oidcAudience, oidcClientId, oidcConnectOrigins }: Context) =>
  oidcIssuer !== undefined && oidcAudience !== undefined && oidcClientId !== undefined
    ? {
        issuer: oidcIssuer,
        audience: oidcAudience,
        clientId: oidcClientId,
        connectOrigins: oidcConnectOrigins === undefined ? [] : oidcConnectOrigins.split(','),
      }
    : undefined;

/** The settings, with the ones that only make sense together grouped. */
const toStackConfig = (context: Context) => {
  const {
    domainName,
    certificateArn,
    throttleRateLimit,
    throttleBurstLimit,
    waf,
    wafRateLimit,
    createAccess,
    oidcIssuer,
    oidcAudience,
    oidcClientId,
    oidcConnectOrigins,
    oidcAllowedDomains,
    oidcAllowedGroups,
    oidcGroupsClaim,
    oidcAnyAccount,
    ...settings
  } = context;
  const issuer = teamIssuer(context);
  const accounts = { oidcAllowedDomains, oidcAllowedGroups, oidcGroupsClaim, oidcAnyAccount };
  return {
    ...settings,
    /** signed-in: `issuer` is the team's own provider, or undefined for the stack's Cognito user pool. */
    signIn: createAccess === 'signed-in' ? { issuer, allowedAccounts: allowedAccounts(issuer === undefined, accounts) } : undefined,
    waf: waf ? { requestsPerAddress: wafRateLimit } : undefined,
    throttle: { rateLimit: throttleRateLimit, burstLimit: throttleBurstLimit },
    customDomain: domainName !== undefined && certificateArn !== undefined ? { domainName, certificateArn } : undefined,
  };
};

export type SecretsStackConfig = Readonly<ReturnType<typeof toStackConfig>>;

export function readStackConfig(node: Node): SecretsStackConfig {
  return toStackConfig(readSettings(contextSchema(), { read: (key): unknown => node.tryGetContext(key), prefix: 'context ' }));
}

/**
 * `functionName`'s environment: the variables of the rows that name it (or 'all'), from `values`.
 * Values may be CDK tokens, which String() keeps.
 */
export function functionEnvironment(functionName: FunctionName, values: SettingValues): Record<string, string> {
  const rows = settingRows((row) => row.functions === 'all' || (row.functions?.includes(functionName) ?? false));
  const environment: Record<string, string> = {};
  for (const [name, row] of rows) {
    const value = values[name];
    if (value !== undefined) environment[row.env ?? name] = String(value);
    else if (row.required) throw new Error(`${functionName} needs ${name}, which the stack did not give`);
  }
  return environment;
}
