import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { ServiceConfig } from '../config/functions';
import { ERRORS } from '#contract/errors';
import { addressBytesWindow } from '../use-cases/stored-bytes';
import { clientAddress } from './client-address';
import { HttpError } from './http-error';
import { retryAfterSeconds } from './route';

/** Routes that store what they are sent: a large body counts against its address's day; past it, 429. */
export async function guardAddressBytes(
  event: APIGatewayProxyEvent,
  now: number,
  bodyBytes: number,
  config: Pick<ServiceConfig, 'originSecret' | 'storedBytes'>,
): Promise<void> {
  const addressDay = await addressBytesWindow(clientAddress(event, config.originSecret), now, bodyBytes, config.storedBytes);
  if (addressDay?.limited) {
    throw new HttpError(429, ERRORS.storedBytesPerAddressLimited, { 'retry-after': retryAfterSeconds(addressDay.retryAt, now) });
  }
}
