import * as z from 'zod/mini';
import { ENV } from '../definitions/env';
import { KEY_CREATION_LIMIT, STORED_BYTES_LIMIT } from '../definitions/limits';
import { WEBHOOK_RETRY_BASE_MS } from '../definitions/webhooks';
import { flag, readSettings, siteUrl, text } from './fields';
import { keysPerIpPerHour, storedMiBPerDay, webhookRetryBaseMs } from './service-settings';

/**
 * The functions' environment: set by the stack on AWS and by `npm start` locally. Each function
 * reads it once, when its module loads, so that a bad value fails the first invocation with a
 * message naming the variable rather than a request at random.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** Webhooks may target loopback hosts: local mode's development switch, never set on AWS. */
const webhookAllowLoopback = () => z._default(flag(), false);

const ROUTE_ENV = z.object({
  [ENV.siteUrl]: siteUrl(),
  [ENV.keysPerIpPerHour]: z._default(keysPerIpPerHour(), KEY_CREATION_LIMIT.defaultPerIpPerHour),
  [ENV.webhookAllowLoopback]: webhookAllowLoopback(),
  [ENV.originSecret]: z.optional(text({ secret: true })),
  [ENV.storedMiBPerKeyPerDay]: z._default(storedMiBPerDay(), STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay),
  [ENV.storedMiBPerAddressPerDay]: z._default(storedMiBPerDay(), STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay),
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
  const settings = readSettings(ROUTE_ENV, { read: (name) => env[name] });
  return {
    siteUrl: settings[ENV.siteUrl].replace(/\/+$/, ''),
    keysPerIpPerHour: settings[ENV.keysPerIpPerHour],
    webhookAllowLoopback: settings[ENV.webhookAllowLoopback],
    originSecret: settings[ENV.originSecret],
    storedBytes: { perKeyPerDayMiB: settings[ENV.storedMiBPerKeyPerDay], perAddressPerDayMiB: settings[ENV.storedMiBPerAddressPerDay] },
  };
}

const DELIVERY_ENV = z.object({
  [ENV.webhookAllowLoopback]: webhookAllowLoopback(),
  [ENV.webhookRetryBaseMs]: z._default(webhookRetryBaseMs(), WEBHOOK_RETRY_BASE_MS.local),
});

/** Settings of the webhook delivery function, which has no SITE_URL. */
export interface DeliveryConfig {
  webhookAllowLoopback: boolean;
  retryBaseMs: number;
}

export function readDeliveryConfig(env: Env = process.env): DeliveryConfig {
  const settings = readSettings(DELIVERY_ENV, { read: (name) => env[name] });
  return { webhookAllowLoopback: settings[ENV.webhookAllowLoopback], retryBaseMs: settings[ENV.webhookRetryBaseMs] };
}
