import { CREATE_ACCESS_MODES, DEFAULT_CREATE_ACCESS, DEFAULT_GROUPS_CLAIM } from '#contract/create-access';
import { DEFAULT_STACK_NAME, DEFAULT_THROTTLE, DEFAULT_WRITE_UNITS_ALARM_PER_HOUR } from '../definitions/deployment';
import { ADDRESS_RATE_LIMIT, GATE, KEY_CREATION_LIMIT, MAX_BODY_BYTES, MIB, STORED_BYTES_LIMIT } from '#contract/limits';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS } from '../definitions/observability';
import type { RouteName } from '#contract/routes';
import type { PagesConfig } from '#contract/site';
import { MAX_RETRY_BASE_MS, WEBHOOK_RETRY_BASE_MS, type PIPELINE_ENTRIES } from '../definitions/webhooks';
import {
  emailField,
  type Field,
  flagField,
  httpUrlField,
  integerField,
  matchingField,
  nameListField,
  oneOfField,
  siteUrlField,
  textField,
} from './fields';

/**
 * Every setting of a deployment, one row each: the CDK context (lib/config.ts), each function's
 * environment (set by lib/secrets-stack.ts, read by readFunctionSettings), local mode's
 * (local/settings.ts), the pages' config.json (pagesConfig) and the settings tables of
 * docs/deploy.md and docs/local-mode.md (`npm run docs:settings`) are all derived from it.
 * Adding a setting is one row here plus its use. Rules that tie settings together (both or
 * neither) stay with their reader, lib/config.ts.
 */

export type FunctionName = RouteName | keyof typeof PIPELINE_ENTRIES;

interface SettingOptions<Value> {
  /** The value when unset. None: unset means none (undefined), or an error where `required`. */
  readonly default?: Value;
  /** The value the functions take when the stack has not set it (local mode, tests), where not `default`. */
  readonly localDefault?: Value;
  /** Where else it applies: a CDK context key of the row's name (docs/deploy.md), `npm start`'s environment (docs/local-mode.md), the pages' config.json under the row's name. */
  readonly in?: readonly ('context' | 'local' | 'pages')[];
  /** The environment variable it reaches the functions and local mode in. */
  readonly env?: string;
  /** The functions whose environment the stack sets it in; 'all': every function, for a library that reads it itself. */
  readonly functions?: readonly FunctionName[] | 'all';
  /** Its functions cannot run without it; the stack always sets it. */
  readonly required?: true;
  /** Its one line in the docs' tables. */
  readonly docs: string;
  /** The default as the docs tell it, where the value alone would not (deploy.md; local-mode.md too unless `localDefaultDocs`). */
  readonly defaultDocs?: string;
  readonly localDefaultDocs?: string;
}

export type SettingRow<Value> = SettingOptions<Value> & { readonly field: Field<Value> };

const setting = <Value, const Options extends SettingOptions<NoInfer<Value>>>(field: Field<Value>, options: Options) => ({ field, ...options });

const storedMiBPerDay = () =>
  integerField({ min: Math.ceil(MAX_BODY_BYTES / MIB), max: STORED_BYTES_LIMIT.maxMiBPerDay, why: 'a day of the largest bodies stays a bound' });

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
/** An https origin (scheme, host, optional port; no path), as a Content-Security-Policy source names it. */
const HTTPS_ORIGIN = String.raw`https://([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?`;

export const SETTINGS = {
  stackName: setting(
    // CloudFormation's rule for stack names.
    matchingField(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'a CloudFormation stack name: a letter, then letters, digits or hyphens, 128 at most'),
    {
      default: DEFAULT_STACK_NAME,
      in: ['context'],
      docs: "the CloudFormation stack's name, and its REST API's; a second stage in the same account and region needs its own ([below](#two-stages-in-one-account))",
    },
  ),
  siteUrl: setting(siteUrlField(), {
    in: ['context', 'local'],
    env: 'SITE_URL',
    functions: ['secrets-create', 'requests-create'],
    required: true,
    docs: 'base of secret links (`http(s)://…`), if the pages live elsewhere',
    defaultDocs: "the distribution's URL",
    localDefaultDocs: '`http://localhost:$PORT`',
  }),
  domainName: setting(matchingField(HOST_NAME, 'a host name such as secrets.example.com'), {
    in: ['context'],
    docs: "the distribution's own host name, with `certificateArn`; both or neither",
    defaultDocs: 'none: `*.cloudfront.net`',
  }),
  certificateArn: setting(
    matchingField(/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/, "the ARN of an ACM certificate in us-east-1 (CloudFront's region)"),
    { in: ['context'], docs: "`domainName`'s ACM certificate, which CloudFront requires in us-east-1" },
  ),
  keysPerIpPerHour: setting(
    integerField({ min: 1, max: KEY_CREATION_LIMIT.maxPerIpPerHour, why: "an address's hour of attempts fits one DynamoDB item" }),
    {
      default: KEY_CREATION_LIMIT.defaultPerIpPerHour,
      in: ['context', 'local'],
      env: 'KEYS_PER_IP_PER_HOUR',
      functions: ['keys-create'],
      docs: "`POST /keys` per client IP per hour (an address's attempts of the last hour are kept in one DynamoDB item)",
    },
  ),
  throttleRateLimit: setting(integerField({ min: 1 }), {
    default: DEFAULT_THROTTLE.rateLimit,
    in: ['context'],
    docs: 'stage-wide gateway throttling in requests a second, in front of the per-key limits',
  }),
  throttleBurstLimit: setting(integerField({ min: 1 }), { default: DEFAULT_THROTTLE.burstLimit, in: ['context'], docs: "the stage's burst" }),
  webhookAllowLoopback: setting(flagField(), {
    default: false,
    env: 'WEBHOOK_ALLOW_LOOPBACK',
    functions: ['keys-create', 'keys-update', 'delivery'],
    in: ['local'],
    docs: '`1` (or `true`) lets webhooks target `http(s)://` loopback hosts (127.0.0.0/8, ::1, localhost), for development; never set on AWS',
  }),
  webhookRetryBaseMs: setting(integerField({ min: 1, max: MAX_RETRY_BASE_MS, why: "the last retry's wait fits SQS's 12-hour visibility limit" }), {
    default: WEBHOOK_RETRY_BASE_MS.aws,
    localDefault: WEBHOOK_RETRY_BASE_MS.local,
    in: ['context', 'local'],
    env: 'WEBHOOK_RETRY_BASE_MS',
    functions: ['delivery'],
    docs: 'first webhook retry delay in ms; each later one waits 12 times longer, ±10% (SQS counts whole seconds)',
  }),
  /** The distribution's secret origin header (EDGE_HEADERS.originSecret), for the routes that read the client's address; unset: no proxy is trusted. */
  originSecret: setting(textField({ secret: true }), {
    env: 'ORIGIN_SECRET',
    functions: ['keys-create', 'secrets-create', 'requests-fulfil'],
    docs: "generated at deploy time, known to the distribution and these functions only (they read the client's address)",
  }),
  alarmEmail: setting(emailField(), { in: ['context'], docs: 'an address subscribed to the alarm topic (AWS sends a confirmation link)' }),
  secretsPointInTimeRecovery: setting(flagField(), {
    default: false,
    in: ['context'],
    docs: "`true` turns on point-in-time recovery of the secrets table; off, since it keeps every consumed and revoked secret's ciphertext restorable for 35 days (the keys table always has it)",
  }),
  apiGatewayCloudWatchRole: setting(flagField(), {
    default: false,
    in: ['context'],
    docs: "`true` creates API Gateway's CloudWatch role and makes it the account's, in this region ([below](#the-api-gateway-logging-role))",
  }),
  logLevel: setting(oneOfField(LOG_LEVELS, { ignoreCase: true }), {
    default: DEFAULT_LOG_LEVEL,
    in: ['context', 'local'],
    env: 'POWERTOOLS_LOG_LEVEL',
    functions: 'all',
    docs: "every function's Powertools log level",
  }),
  waf: setting(flagField(), {
    default: true,
    in: ['context'],
    docs: "`false` leaves out the API's AWS WAF web ACL (per-address rate limit, AWS managed rules; $9 a month idle, [security](security.md#edge-protection), [why](decisions/waf.md))",
  }),
  wafRateLimit: setting(integerField({ min: ADDRESS_RATE_LIMIT.minPerWindow, max: ADDRESS_RATE_LIMIT.maxPerWindow, why: 'AWS WAF accepts it' }), {
    default: ADDRESS_RATE_LIMIT.defaultPerWindow,
    in: ['context'],
    docs: "requests per client address in the web ACL's 5-minute window",
  }),
  createAccess: setting(oneOfField(CREATE_ACCESS_MODES), {
    default: DEFAULT_CREATE_ACCESS,
    in: ['context', 'local', 'pages'],
    env: 'CREATE_ACCESS',
    functions: ['keys-create'],
    docs: 'who may create secrets: `open` (anyone may mint a key, the contract) or `signed-in` ([deploy](deploy.md#who-may-create-open-or-signed-in), [locally](local-mode.md#signed-in-locally))',
  }),
  oidcIssuer: setting(httpUrlField(), {
    in: ['context', 'local'],
    env: 'OIDC_ISSUER',
    functions: ['keys-create'],
    docs: "with `signed-in`: the team's own OpenID Connect issuer; none: a Cognito user pool the stack creates (local mode: its own provider)",
  }),
  oidcAudience: setting(textField(), {
    in: ['context', 'local'],
    env: 'OIDC_AUDIENCE',
    functions: ['keys-create'],
    docs: 'with the issuer: the `aud` its tokens carry',
  }),
  oidcClientId: setting(textField(), {
    in: ['context'],
    docs: "with the issuer: the pages' public client (issuer, audience and client: all three or none)",
  }),
  /** The issuer's JWKS URL; unset: its discovery document names it. The stack sets its own pool's. */
  oidcJwksUri: setting(httpUrlField(), { env: 'OIDC_JWKS_URI', functions: ['keys-create'], docs: "the issuer's JWKS URL" }),
  oidcConnectOrigins: setting(
    // Given because synth runs offline and cannot read the discovery document that names them.
    matchingField(
      new RegExp(`^${HTTPS_ORIGIN}(,${HTTPS_ORIGIN}){0,9}$`),
      'up to 10 https origins, comma-separated, lowercase, without a path (https://oauth2.googleapis.com)',
    ),
    {
      in: ['context'],
      docs: "with `oidcIssuer`: other origins the share page reaches when it signs in, such as Google's token endpoint ([below](#who-may-create-open-or-signed-in))",
    },
  ),
  oidcAllowedDomains: setting(nameListField('email domains (example.com)', { lowercase: true }), {
    in: ['context', 'local'],
    env: 'OIDC_ALLOWED_DOMAINS',
    functions: ['keys-create'],
    docs: "with `signed-in`: the accounts that get a full key by their verified email's domain; each list given must match. With `oidcIssuer` a list or `oidcAnyAccount` is required ([deploy](deploy.md#who-may-create-open-or-signed-in))",
    defaultDocs: "none (the stack's pool: any account)",
    localDefaultDocs: "local provider: `example.test`, its test user's domain",
  }),
  oidcAllowedGroups: setting(nameListField('group names or ids'), {
    in: ['context', 'local'],
    env: 'OIDC_ALLOWED_GROUPS',
    functions: ['keys-create'],
    docs: "the same by a group in the token's `oidcGroupsClaim`",
  }),
  oidcGroupsClaim: setting(textField(), {
    localDefault: DEFAULT_GROUPS_CLAIM,
    in: ['context', 'local'],
    env: 'OIDC_GROUPS_CLAIM',
    functions: ['keys-create'],
    docs: "the claim that lists a token's groups",
    defaultDocs: "`groups`; `cognito:groups` for the stack's pool",
    localDefaultDocs: '`groups`',
  }),
  oidcAnyAccount: setting(flagField(), {
    default: false,
    in: ['context', 'local'],
    env: 'OIDC_ANY_ACCOUNT',
    functions: ['keys-create'],
    docs: '`true`: every account the issuer vouches for gets a full key, without a list',
  }),
  storedMiBPerKeyPerDay: setting(storedMiBPerDay(), {
    default: STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay,
    in: ['context', 'local'],
    env: 'STORED_MIB_PER_KEY_PER_DAY',
    functions: ['secrets-create', 'requests-fulfil'],
    docs: 'MiB one key may send to `POST /secrets` and `POST /requests/{id}` together in a sliding day ([security](security.md#denial-of-wallet))',
  }),
  storedMiBPerAddressPerDay: setting(storedMiBPerDay(), {
    default: STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay,
    in: ['context', 'local'],
    env: 'STORED_MIB_PER_ADDRESS_PER_DAY',
    functions: ['secrets-create', 'requests-fulfil'],
    docs: 'the same for one client address, counting bodies over 300 KB only',
  }),
  writeUnitsAlarmPerHour: setting(integerField({ min: 1 }), {
    default: DEFAULT_WRITE_UNITS_ALARM_PER_HOUR,
    in: ['context'],
    docs: "the tables' consumed write units in an hour past which `WriteUnitsAlarm` fires ([runbook](operate.md#write-capacity-writeunitsalarm))",
  }),
  passphraseAttempts: setting(integerField({ min: 1, max: 100 }), {
    default: GATE.attempts,
    in: ['context', 'local', 'pages'],
    env: 'PASSPHRASE_ATTEMPTS',
    functions: ['secrets-create'],
    docs: 'wrong passphrases a gated secret allows; the last of them deletes it',
  }),
} as const;

export type SettingName = keyof typeof SETTINGS;
type Row<Name extends SettingName> = (typeof SETTINGS)[Name];
type FieldValue<Name extends SettingName> = Row<Name>['field'] extends Field<infer Value> ? Value : never;

/** A setting's value where it has been read: undefined only when it has no default. */
export type SettingValue<Name extends SettingName> = Row<Name> extends { default: unknown } ? FieldValue<Name> : FieldValue<Name> | undefined;

/** What `functionName` reads from its environment: the rows that name it. */
export type FunctionSettings<F extends FunctionName> = {
  -readonly [
    Name in SettingName as Row<Name> extends { functions: readonly (infer Reader)[] } ? (F extends Reader ? Name : never) : never
  ]: Row<Name> extends { required: true } | { localDefault: unknown } ? FieldValue<Name> : SettingValue<Name>;
};

/** The rows `keep` keeps, with their names, typed loosely: what the readers loop over. */
export const settingRows = (keep: (row: SettingRow<unknown>) => boolean = () => true): (readonly [SettingName, SettingRow<unknown>])[] =>
  (Object.entries(SETTINGS) as [SettingName, SettingRow<unknown>][]).filter(([, row]) => keep(row));

/** Values of settings as a surface holds them; the stack's may be CDK tokens (strings). */
export type SettingValues = { readonly [Name in SettingName]?: SettingValue<Name> | string };

/** The names of the rows that apply `in` `surface`. */
export type NamesIn<Surface extends string> = {
  [Name in SettingName]: Row<Name> extends { in: readonly (infer Where)[] } ? (Surface extends Where ? Name : never) : never;
}[SettingName];

/**
 * The pages' config.json (contract/site.ts PagesConfig), as the stack's bucket deployment and local
 * mode serve it: the `pages` rows, and with signed-in, where the share page signs in.
 */
export function pagesConfig(values: SettingValues): PagesConfig {
  const { createAccess, oidcIssuer: issuer, oidcClientId: clientId, oidcAudience: audience } = values;
  const signIn = createAccess === 'signed-in' && issuer && clientId && audience ? { signIn: { issuer, clientId, audience } } : {};
  const shown = settingRows((row) => row.in?.includes('pages') ?? false).map(([name, row]) => [name, values[name] ?? row.default]);
  return { ...(Object.fromEntries(shown) as Pick<PagesConfig, NamesIn<'pages'>>), ...signIn };
}
