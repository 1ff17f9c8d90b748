import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ERRORS } from '#contract/errors';
import { addressBytesWindow, type StoredBytesQuota } from '../use-cases/stored-bytes';
import { clientAddress } from './client-address';
import { HttpError } from './http-error';
import { retryAfterSeconds } from './route';

/** Routes that store what they are sent: a large body counts against its address's day; past it, 429. */
export async function guardAddressBytes(
  event: APIGatewayProxyEvent,
  now: number,
  bodyBytes: number,
  config: StoredBytesQuota & { readonly originSecret: string | undefined },
): Promise<void> {
  const addressDay = await addressBytesWindow(clientAddress(event, config.originSecret), now, bodyBytes, config);
  if (addressDay?.limited) {
    throw new HttpError(429, ERRORS.storedBytesPerAddressLimited, { 'retry-after': retryAfterSeconds(addressDay.retryAt, now) });
  }
}
