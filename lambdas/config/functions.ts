import { ENV } from '../definitions/env';
import { KEY_CREATION_LIMIT, STORED_BYTES_LIMIT } from '#contract/limits';
import { WEBHOOK_RETRY_BASE_MS } from '../definitions/webhooks';
import { optional, readEnvironment, required, withDefault } from './environment';
import { flagField, siteUrlField, textField } from './fields';
import { keysPerIpPerHour, storedMiBPerDay, webhookRetryBaseMs } from './service-settings';

/**
 * The functions' environment: set by the stack on AWS and by `npm start` locally. Each function
 * reads it once, when its module loads, so that a bad value fails the first invocation with a
 * message naming the variable rather than a request at random.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** Webhooks may target loopback hosts: local mode's development switch, never set on AWS. */
const webhookAllowLoopback = () => withDefault(flagField(), false);

// Built by their readers, not at module load: a function reads one of them, once.
const routeEnv = () => ({
  [ENV.siteUrl]: required(siteUrlField()),
  [ENV.keysPerIpPerHour]: withDefault(keysPerIpPerHour(), KEY_CREATION_LIMIT.defaultPerIpPerHour),
  [ENV.webhookAllowLoopback]: webhookAllowLoopback(),
  [ENV.originSecret]: optional(textField({ secret: true })),
  [ENV.storedMiBPerKeyPerDay]: withDefault(storedMiBPerDay(), STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay),
  [ENV.storedMiBPerAddressPerDay]: withDefault(storedMiBPerDay(), STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay),
});

/** Settings of the route functions that read any (creating keys and secrets, setting a webhook). */
export interface ServiceConfig {
  /** Without a trailing slash: links are `<siteUrl>/<id>`. */
  siteUrl: string;
  keysPerIpPerHour: number;
  webhookAllowLoopback: boolean;
  /** Set by the stack on routes that read the client's address (EDGE_HEADERS); never logged. */
  originSecret: string | undefined;
  /** The daily byte quotas of POST /secrets and POST /requests/{id}. */
  storedBytes: { perKeyPerDayMiB: number; perAddressPerDayMiB: number };
}

export function readConfig(env: Env = process.env): ServiceConfig {
  const settings = readEnvironment(routeEnv(), env);
  return {
    siteUrl: settings[ENV.siteUrl].replace(/\/+$/, ''),
    keysPerIpPerHour: settings[ENV.keysPerIpPerHour],
    webhookAllowLoopback: settings[ENV.webhookAllowLoopback],
    originSecret: settings[ENV.originSecret],
    storedBytes: { perKeyPerDayMiB: settings[ENV.storedMiBPerKeyPerDay], perAddressPerDayMiB: settings[ENV.storedMiBPerAddressPerDay] },
  };
}

const deliveryEnv = () => ({
  [ENV.webhookAllowLoopback]: webhookAllowLoopback(),
  [ENV.webhookRetryBaseMs]: withDefault(webhookRetryBaseMs(), WEBHOOK_RETRY_BASE_MS.local),
});

/** Settings of the webhook delivery function, which has no SITE_URL. */
export interface DeliveryConfig {
  webhookAllowLoopback: boolean;
  retryBaseMs: number;
}

export function readDeliveryConfig(env: Env = process.env): DeliveryConfig {
  const settings = readEnvironment(deliveryEnv(), env);
  return { webhookAllowLoopback: settings[ENV.webhookAllowLoopback], retryBaseMs: settings[ENV.webhookRetryBaseMs] };
}
