import { ENV } from '../definitions/env';
import { KEY_CREATION_LIMIT } from '../definitions/limits';
import { MAX_RETRY_BASE_MS, WEBHOOK_RETRY_BASE_MS } from '../definitions/webhooks';

/** Settings read from the environment: set by the stack on AWS and by `npm start` locally. */
export interface ServiceConfig {
  siteUrl: string;
  keysPerIpPerHour: number;
  webhookAllowLoopback: boolean;
  /** Set by the stack on routes that read the client's address (EDGE_HEADERS); never logged. */
  originSecret: string | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const siteUrl = env[ENV.siteUrl];
  if (!siteUrl) throw new Error(`${ENV.siteUrl} is not set`);
  const perHour = env[ENV.keysPerIpPerHour];
  const keysPerIpPerHour = perHour === undefined || perHour === '' ? KEY_CREATION_LIMIT.defaultPerIpPerHour : Number(perHour);
  if (!Number.isInteger(keysPerIpPerHour) || keysPerIpPerHour < 1 || keysPerIpPerHour > KEY_CREATION_LIMIT.maxPerIpPerHour) {
    throw new Error(`${ENV.keysPerIpPerHour} must be an integer from 1 to ${KEY_CREATION_LIMIT.maxPerIpPerHour}`);
  }
  return {
    siteUrl: siteUrl.replace(/\/+$/, ''),
    keysPerIpPerHour,
    webhookAllowLoopback: allowsLoopbackWebhooks(env),
    originSecret: env[ENV.originSecret] || undefined,
  };
}

/** Settings of the webhook delivery function, which has no SITE_URL. */
export interface DeliveryConfig {
  webhookAllowLoopback: boolean;
  retryBaseMs: number;
}

export function readDeliveryConfig(env: NodeJS.ProcessEnv = process.env): DeliveryConfig {
  const raw = env[ENV.webhookRetryBaseMs];
  // Digits only: Number() would also take '1e3' or '0x3e8'.
  const retryBaseMs = raw === undefined || raw === '' ? WEBHOOK_RETRY_BASE_MS.local : /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(retryBaseMs >= 1 && retryBaseMs <= MAX_RETRY_BASE_MS)) {
    throw new Error(`${ENV.webhookRetryBaseMs} must be an integer number of milliseconds from 1 to ${MAX_RETRY_BASE_MS}`);
  }
  return { webhookAllowLoopback: allowsLoopbackWebhooks(env), retryBaseMs };
}

const allowsLoopbackWebhooks = (env: NodeJS.ProcessEnv): boolean => env[ENV.webhookAllowLoopback] === '1';
