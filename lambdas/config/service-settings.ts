import { KEY_CREATION_LIMIT, MAX_BODY_BYTES, MIB, STORED_BYTES_LIMIT } from '#contract/limits';
import { LOG_LEVELS } from '../definitions/observability';
import { MAX_RETRY_BASE_MS } from '../definitions/webhooks';
import { integerField, oneOfField } from './fields';

/**
 * Settings that more than one surface reads (a CDK context value becomes a function's environment
 * variable; local mode takes the same variable), with the same bounds and words on every one.
 * Plain rules (fields.ts): a function reads them as they are, a surface with a zod schema wraps
 * them in schemaOf. Functions rather than constants, so that a bundle keeps only the ones it reads.
 */

export const keysPerIpPerHour = () =>
  integerField({ min: 1, max: KEY_CREATION_LIMIT.maxPerIpPerHour, why: "an address's hour of attempts fits one DynamoDB item" });

/** Milliseconds before the first webhook retry; each later one doubles it. */
export const webhookRetryBaseMs = () =>
  integerField({ min: 1, max: MAX_RETRY_BASE_MS, why: "the last retry's wait fits SQS's 12-hour visibility limit" });

/** Powertools Logger's level, as POWERTOOLS_LOG_LEVEL takes it, in any case. */
export const logLevel = () => oneOfField(LOG_LEVELS, { ignoreCase: true });

/** MiB a key or an address may send to POST /secrets in a day: at least the largest body, so that one always fits. */
export const storedMiBPerDay = () =>
  integerField({ min: Math.ceil(MAX_BODY_BYTES / MIB), max: STORED_BYTES_LIMIT.maxMiBPerDay, why: 'a day of the largest bodies stays a bound' });
