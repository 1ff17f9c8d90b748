import { createHash } from 'node:crypto';
import { API_KEY_PATTERN, API_KEY_PREFIX, API_KEY_RANDOM_LENGTH, WEBHOOK_SECRET_PREFIX, WEBHOOK_SECRET_RANDOM_LENGTH } from '#contract/limits';
import { randomAlphanumeric } from './random';

export const generateApiKey = (): string => API_KEY_PREFIX + randomAlphanumeric(API_KEY_RANDOM_LENGTH);

export const generateWebhookSecret = (): string => WEBHOOK_SECRET_PREFIX + randomAlphanumeric(WEBHOOK_SECRET_RANDOM_LENGTH);

export const isWellFormedApiKey = (candidate: string): boolean => API_KEY_PATTERN.test(candidate);

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Only this digest is ever stored: a leaked table does not leak usable keys. */
export const hashApiKey = sha256Hex;

export const apiKeyHint = (key: string): string => `${API_KEY_PREFIX}****${key.slice(-4)}`;

/** Reads `Authorization: Bearer <key>` (scheme case-insensitive); undefined when absent or malformed. */
export function bearerKeyFrom(authorization: string | undefined): string | undefined {
  const match = /^bearer +(\S+)\s*$/i.exec(authorization ?? '');
  const key = match?.[1];
  return key !== undefined && isWellFormedApiKey(key) ? key : undefined;
}
