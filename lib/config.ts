import type { Node } from 'constructs';
import * as z from 'zod/mini';
import { createAccessMode, emailDomainsField, groupsField } from '#lambdas/config/create-access';
import { email, flag, httpUrl, integer, matching, readSettings, schemaOf, siteUrl, text, together } from '#lambdas/config/fields';
import { keysPerIpPerHour, logLevel, storedMiBPerDay, webhookRetryBaseMs } from '#lambdas/config/service-settings';
import { COGNITO_GROUPS_CLAIM, DEFAULT_CREATE_ACCESS, DEFAULT_GROUPS_CLAIM, type AllowedAccounts } from '#contract/create-access';
import { DEFAULT_STACK_NAME, DEFAULT_THROTTLE, DEFAULT_WRITE_UNITS_ALARM_PER_HOUR } from '#lambdas/definitions/deployment';
import { ADDRESS_RATE_LIMIT, KEY_CREATION_LIMIT, STORED_BYTES_LIMIT } from '#contract/limits';
import { DEFAULT_LOG_LEVEL } from '#lambdas/definitions/observability';
import { WEBHOOK_RETRY_BASE_MS } from '#lambdas/definitions/webhooks';

/** CloudFormation's rule for stack names: a letter, then letters, digits and hyphens, 128 at most. */
const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const US_EAST_1_CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;
/** An https origin (scheme, host, optional port; no path), as a Content-Security-Policy source names it. */
const HTTPS_ORIGIN = String.raw`https://([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?`;
const HTTPS_ORIGINS = new RegExp(`^${HTTPS_ORIGIN}(,${HTTPS_ORIGIN}){0,9}$`);

/**
 * What a deployment may choose, read from CDK context (`cdk.json` or `-c key=value`): one line per
 * context key, named as the key. A new setting is one more line here; it reaches SecretsStackConfig
 * under its own name.
 */
const CONTEXT = z
  .object({
    /** The CloudFormation stack, its REST API and what CloudFormation names after it: two stages need two names. */
    stackName: z._default(
      matching(STACK_NAME, 'a CloudFormation stack name: a letter, then letters, digits or hyphens, 128 at most'),
      DEFAULT_STACK_NAME,
    ),
    /** Base of secret links; absent: the distribution's URL (the custom domain's, if set). */
    siteUrl: z.optional(siteUrl()),
    /** The distribution's own name, with its ACM certificate (which CloudFront requires in us-east-1). */
    domainName: z.optional(matching(HOST_NAME, 'a host name such as secrets.example.com')),
    certificateArn: z.optional(matching(US_EAST_1_CERTIFICATE_ARN, "the ARN of an ACM certificate in us-east-1 (CloudFront's region)")),
    keysPerIpPerHour: z._default(schemaOf(keysPerIpPerHour()), KEY_CREATION_LIMIT.defaultPerIpPerHour),
    /** Stage-wide ceiling, across all clients, in front of the per-key limits the handlers enforce. */
    throttleRateLimit: z._default(integer({ min: 1 }), DEFAULT_THROTTLE.rateLimit),
    throttleBurstLimit: z._default(integer({ min: 1 }), DEFAULT_THROTTLE.burstLimit),
    /** First webhook retry delay; each later retry doubles it. */
    webhookRetryBaseMs: z._default(schemaOf(webhookRetryBaseMs()), WEBHOOK_RETRY_BASE_MS.aws),
    /** Subscribed to the alarm topic. */
    alarmEmail: z.optional(email()),
    /**
     * Point-in-time recovery of the secrets table. Off by default: it would keep every consumed and
     * revoked secret's ciphertext restorable for 35 days, which "one-time" rules out.
     */
    secretsPointInTimeRecovery: z._default(flag(), false),
    /**
     * Create API Gateway's CloudWatch role and make it the account's, in this region (see lib/api.ts).
     * Off by default: it is an account-wide setting, which another stack or team may own.
     */
    apiGatewayCloudWatchRole: z._default(flag(), false),
    /** Every function's Powertools Logger level (POWERTOOLS_LOG_LEVEL). */
    logLevel: z._default(schemaOf(logLevel()), DEFAULT_LOG_LEVEL),
    /** The API's AWS WAF web ACL (lib/waf.ts); false leaves it out. */
    waf: z._default(flag(), true),
    /** Requests one client address may send in the web ACL's window. */
    wafRateLimit: z._default(
      integer({ min: ADDRESS_RATE_LIMIT.minPerWindow, max: ADDRESS_RATE_LIMIT.maxPerWindow, why: 'AWS WAF accepts it' }),
      ADDRESS_RATE_LIMIT.defaultPerWindow,
    ),
    /** Who may create secrets (definitions/create-access.ts): open (the contract) or signed-in. */
    createAccess: z._default(schemaOf(createAccessMode()), DEFAULT_CREATE_ACCESS),
    /** signed-in with the team's own OpenID Connect provider; none of the three: a Cognito user pool the stack creates. */
    oidcIssuer: z.optional(httpUrl()),
    oidcAudience: z.optional(text()),
    oidcClientId: z.optional(text()),
    /**
     * The team's issuer only: other origins the share page reaches when it signs in, such as
     * Google's token endpoint (https://oauth2.googleapis.com), which discovery names and the
     * issuer's origin does not cover. Given here because synth runs offline and cannot read the
     * discovery document.
     */
    oidcConnectOrigins: z.optional(
      matching(HTTPS_ORIGINS, 'up to 10 https origins, comma-separated, lowercase, without a path (https://oauth2.googleapis.com)'),
    ),
    /**
     * signed-in: the accounts that get a full key (AllowedAccounts), required with oidcIssuer:
     * their verified email's domains, their groups (in the claim oidcGroupsClaim; default
     * `groups`, or `cognito:groups` for the stack's own pool), or oidcAnyAccount=true.
     */
    oidcAllowedDomains: z.optional(schemaOf(emailDomainsField())),
    oidcAllowedGroups: z.optional(schemaOf(groupsField())),
    oidcGroupsClaim: z.optional(text()),
    oidcAnyAccount: z._default(flag(), false),
    /** The daily byte quotas of POST /secrets and POST /requests/{id} (STORED_BYTES_LIMIT). */
    storedMiBPerKeyPerDay: z._default(schemaOf(storedMiBPerDay()), STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay),
    storedMiBPerAddressPerDay: z._default(schemaOf(storedMiBPerDay()), STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay),
    /** The tables' consumed write units in an hour past which the cost alarm fires (lib/monitoring.ts). */
    writeUnitsAlarmPerHour: z._default(integer({ min: 1 }), DEFAULT_WRITE_UNITS_ALARM_PER_HOUR),
  })
  .check(
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

type AccountContext = Pick<z.output<typeof CONTEXT>, 'oidcAllowedDomains' | 'oidcAllowedGroups' | 'oidcGroupsClaim' | 'oidcAnyAccount'>;

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
const teamIssuer = ({ oidcIssuer, oidcAudience, oidcClientId, oidcConnectOrigins }: z.output<typeof CONTEXT>) =>
  oidcIssuer !== undefined && oidcAudience !== undefined && oidcClientId !== undefined
    ? {
        issuer: oidcIssuer,
        audience: oidcAudience,
        clientId: oidcClientId,
        connectOrigins: oidcConnectOrigins === undefined ? [] : oidcConnectOrigins.split(','),
      }
    : undefined;

/** The settings, with the ones that only make sense together grouped. */
const toStackConfig = (context: z.output<typeof CONTEXT>) => {
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
  return toStackConfig(readSettings(CONTEXT, { read: (key): unknown => node.tryGetContext(key), prefix: 'context ' }));
}
