import { ENV } from '../definitions/env';
import { KEY_CREATION_LIMIT } from '../definitions/limits';

/** Settings read from the environment: set by the stack on AWS and by `npm start` locally. */
export interface ServiceConfig {
  siteUrl: string;
  keysPerIpPerHour: number;
  webhookAllowLoopback: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const siteUrl = env[ENV.siteUrl];
  if (!siteUrl) throw new Error(`${ENV.siteUrl} is not set`);
  const perHour = env[ENV.keysPerIpPerHour];
  const keysPerIpPerHour = perHour === undefined || perHour === '' ? KEY_CREATION_LIMIT.defaultPerIpPerHour : Number(perHour);
  if (!Number.isInteger(keysPerIpPerHour) || keysPerIpPerHour < 1) {
    throw new Error(`${ENV.keysPerIpPerHour} must be a positive integer`);
  }
  return {
    siteUrl: siteUrl.replace(/\/+$/, ''),
    keysPerIpPerHour,
    webhookAllowLoopback: env[ENV.webhookAllowLoopback] === '1',
  };
}
