import type { Node } from 'constructs';
import { KEY_CREATION_LIMIT } from '../lambdas/definitions/limits';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, type LogLevelName } from '../lambdas/definitions/observability';
import { MAX_RETRY_BASE_MS, WEBHOOK_RETRY_BASE_MS } from '../lambdas/definitions/webhooks';

/** What a deployment may choose, read from CDK context (`cdk.json` or `-c name=value`). */
export interface SecretsStackConfig {
  /** Base of secret links; absent: the API's own claim route. */
  readonly siteUrl?: string;
  readonly keysPerIpPerHour: number;
  /** Stage-wide ceiling, across all clients, in front of the per-key limits the handlers enforce. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /** First webhook retry delay; each later retry doubles it. */
  readonly webhookRetryBaseMs: number;
  /** Subscribed to the alarm topic. */
  readonly alarmEmail?: string;
  /** Every function's Powertools Logger level (POWERTOOLS_LOG_LEVEL). */
  readonly logLevel: LogLevelName;
}

const CONTEXT_KEYS = {
  siteUrl: 'siteUrl',
  keysPerIpPerHour: 'keysPerIpPerHour',
  throttleRateLimit: 'throttleRateLimit',
  throttleBurstLimit: 'throttleBurstLimit',
  webhookRetryBaseMs: 'webhookRetryBaseMs',
  alarmEmail: 'alarmEmail',
  logLevel: 'logLevel',
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
  return {
    ...(siteUrl === undefined ? {} : { siteUrl }),
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
