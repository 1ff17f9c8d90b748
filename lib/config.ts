import type { Node } from 'constructs';
import { ADDRESS_RATE_LIMIT, KEY_CREATION_LIMIT } from '../lambdas/definitions/limits';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, type LogLevelName } from '../lambdas/definitions/observability';
import { MAX_RETRY_BASE_MS, WEBHOOK_RETRY_BASE_MS } from '../lambdas/definitions/webhooks';

/** What a deployment may choose, read from CDK context (`cdk.json` or `-c name=value`). */
export interface SecretsStackConfig {
  /** Base of secret links; absent: the distribution's URL (the custom domain's, if set). */
  readonly siteUrl?: string;
  /** The distribution's own name, with its ACM certificate (which CloudFront requires in us-east-1). */
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
  readonly keysPerIpPerHour: number;
  /** Stage-wide ceiling, across all clients, in front of the per-key limits the handlers enforce. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /** First webhook retry delay; each later retry doubles it. */
  readonly webhookRetryBaseMs: number;
  /** Subscribed to the alarm topic. */
  readonly alarmEmail?: string;
  /**
   * Point-in-time recovery of the secrets table. Off by default: it would keep every consumed and
   * revoked secret's ciphertext restorable for 35 days, which "one-time" rules out.
   */
  readonly secretsPointInTimeRecovery: boolean;
  /** Every function's Powertools Logger level (POWERTOOLS_LOG_LEVEL). */
  readonly logLevel: LogLevelName;
  /** The API's AWS WAF web ACL (lib/waf.ts); absent with context waf=false. */
  readonly waf?: { readonly requestsPerAddress: number };
}

const CONTEXT_KEYS = {
  siteUrl: 'siteUrl',
  keysPerIpPerHour: 'keysPerIpPerHour',
  throttleRateLimit: 'throttleRateLimit',
  throttleBurstLimit: 'throttleBurstLimit',
  webhookRetryBaseMs: 'webhookRetryBaseMs',
  alarmEmail: 'alarmEmail',
  secretsPointInTimeRecovery: 'secretsPointInTimeRecovery',
  domainName: 'domainName',
  certificateArn: 'certificateArn',
  logLevel: 'logLevel',
  waf: 'waf',
  wafRateLimit: 'wafRateLimit',
} as const;

/**
 * Sized for a self-hosted service: far above what one team's clients send (each key is held to
 * 100 requests a minute anyway), far below the account's 10,000 rps regional quota, so that a
 * flood is refused at the gateway before it costs Lambda and DynamoDB money.
 */
export const DEFAULT_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;

export function readStackConfig(node: Node): SecretsStackConfig {
  const siteUrl = optionalUrl(node, CONTEXT_KEYS.siteUrl);
  const alarmEmail = optionalEmail(node, CONTEXT_KEYS.alarmEmail);
  const customDomain = optionalCustomDomain(node);
  const waf = optionalBoolean(node, CONTEXT_KEYS.waf) ?? true;
  const requestsPerAddress = boundedPositiveInteger(node, CONTEXT_KEYS.wafRateLimit, ADDRESS_RATE_LIMIT.defaultPerWindow, {
    value: ADDRESS_RATE_LIMIT.maxPerWindow,
    unit: ` requests per ${ADDRESS_RATE_LIMIT.windowSeconds} s`,
    why: 'AWS WAF accepts it',
  });
  if (requestsPerAddress < ADDRESS_RATE_LIMIT.minPerWindow) {
    throw new Error(`context ${CONTEXT_KEYS.wafRateLimit} is too small: at least ${ADDRESS_RATE_LIMIT.minPerWindow}, the least AWS WAF accepts`);
  }
  return {
    ...(waf ? { waf: { requestsPerAddress } } : {}),
    ...(siteUrl === undefined ? {} : { siteUrl }),
    ...(customDomain === undefined ? {} : { customDomain }),
    ...(alarmEmail === undefined ? {} : { alarmEmail }),
    keysPerIpPerHour: boundedPositiveInteger(node, CONTEXT_KEYS.keysPerIpPerHour, KEY_CREATION_LIMIT.defaultPerIpPerHour, {
      value: KEY_CREATION_LIMIT.maxPerIpPerHour,
      unit: '',
      why: "an address's hour of attempts fits one DynamoDB item",
    }),
    throttle: {
      rateLimit: positiveInteger(node, CONTEXT_KEYS.throttleRateLimit, DEFAULT_THROTTLE.rateLimit),
      burstLimit: positiveInteger(node, CONTEXT_KEYS.throttleBurstLimit, DEFAULT_THROTTLE.burstLimit),
    },
    webhookRetryBaseMs: boundedPositiveInteger(node, CONTEXT_KEYS.webhookRetryBaseMs, WEBHOOK_RETRY_BASE_MS.aws, {
      value: MAX_RETRY_BASE_MS,
      unit: ' ms',
      why: "the last retry's wait fits SQS's 12-hour visibility limit",
    }),
    secretsPointInTimeRecovery: optionalBoolean(node, CONTEXT_KEYS.secretsPointInTimeRecovery) ?? false,
    logLevel: logLevel(node, CONTEXT_KEYS.logLevel),
  };
}

function logLevel(node: Node, key: string): LogLevelName {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === '') return DEFAULT_LOG_LEVEL;
  const level = LOG_LEVELS.find((name) => typeof raw === 'string' && name === raw.toUpperCase());
  if (!level) throw new Error(`context ${key} must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
  return level;
}

/** A positive integer no larger than `max.value`; the error says what the bound protects (`max.why`). */
function boundedPositiveInteger(node: Node, key: string, fallback: number, max: { value: number; unit: string; why: string }): number {
  const value = positiveInteger(node, key, fallback);
  if (value > max.value) throw new Error(`context ${key} is too large: at most ${max.value}${max.unit}, so that ${max.why}`);
  return value;
}

// Values given with `-c` arrive as strings, values in cdk.json as JSON; both are accepted.
function positiveInteger(node: Node, key: string, fallback: number): number {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === '') return fallback;
  const value = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new Error(`context ${key} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function optionalBoolean(node: Node, key: string): boolean | undefined {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === '') return undefined;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`context ${key} must be true or false, got ${JSON.stringify(raw)}`);
}

function optionalUrl(node: Node, key: string): string | undefined {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^https?:\/\//.test(raw) || !URL.canParse(raw)) {
    throw new Error(`context ${key} must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

function optionalEmail(node: Node, key: string): string | undefined {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === '') return undefined;
  // What SNS can deliver to: one address, no display name, a dotted domain.
  if (typeof raw !== 'string' || !/^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;.]+$/.test(raw)) {
    throw new Error(`context ${key} must be an email address, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

const optionalString = (node: Node, key: string): unknown => {
  const raw: unknown = node.tryGetContext(key);
  return raw === '' ? undefined : raw;
};

/** Both domainName and certificateArn, or neither: a name without its certificate cannot be served. */
function optionalCustomDomain(node: Node): SecretsStackConfig['customDomain'] {
  const domainName = optionalString(node, CONTEXT_KEYS.domainName);
  const certificateArn = optionalString(node, CONTEXT_KEYS.certificateArn);
  if (domainName === undefined && certificateArn === undefined) return undefined;
  if (domainName === undefined || certificateArn === undefined) {
    throw new Error(`context ${CONTEXT_KEYS.domainName} and ${CONTEXT_KEYS.certificateArn} go together: set both, or neither`);
  }
  if (typeof domainName !== 'string' || !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(domainName)) {
    throw new Error(`context ${CONTEXT_KEYS.domainName} must be a host name such as secrets.example.com, got ${JSON.stringify(domainName)}`);
  }
  if (typeof certificateArn !== 'string' || !/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(certificateArn)) {
    throw new Error(
      `context ${CONTEXT_KEYS.certificateArn} must be the ARN of an ACM certificate in us-east-1 (CloudFront's region), got ${JSON.stringify(certificateArn)}`,
    );
  }
  return { domainName, certificateArn };
}
