import { fromEnv } from '@aws-sdk/credential-provider-env';
import type { NodeHttpHandlerOptions } from '@smithy/types';
import { RepeatSafeRetryStrategy } from './retry-strategy';

/**
 * Every function must answer within API_FUNCTION_TIMEOUT_MS (10 s). The SDK waits forever for a
 * connection or an answer by default; with these bounds three attempts (the SDK's standard retry
 * mode, with its backoff) fit in that budget even when every one of them times out.
 */
export const SDK_MAX_ATTEMPTS = 3;
const CONNECTION_TIMEOUT_MS = 1_000;
export const REQUEST_TIMEOUT_MS = 2_000;
/**
 * A batch call carries up to 16 MB (a 5 MiB secret's chunks in one BatchWriteItem or
 * BatchGetItem): 2 s is plenty for DynamoDB, but a busy DynamoDB Local took longer and the
 * retries of a timed-out batch then failed the create. Batches are safe to repeat; one attempt
 * this long, and a retry, still fit the function's budget.
 */
export const BATCH_REQUEST_TIMEOUT_MS = 4_000;

const REQUEST_HANDLER: NodeHttpHandlerOptions = {
  connectionTimeout: CONNECTION_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  throwOnRequestTimeout: true,
  // Keep-alive: a warm container reuses its TLS connection instead of a handshake per call.
  httpAgent: { keepAlive: true },
  httpsAgent: { keepAlive: true },
};

/**
 * The settings of every SDK client the functions build; `endpoint` only where local mode sets one.
 * Credentials come from the environment, as Lambda provides them (and `npm start` sets them): the
 * SDK's default chain would find them there first too, but naming the source lets the bundles
 * leave the rest of the chain out (lib/bundling.ts, docs/decisions/sdk-cold-start.md).
 */
export const sdkClientSettings = (endpoint: string | undefined) => ({
  maxAttempts: SDK_MAX_ATTEMPTS,
  retryStrategy: new RepeatSafeRetryStrategy(SDK_MAX_ATTEMPTS),
  requestHandler: REQUEST_HANDLER,
  credentials: fromEnv(),
  ...(endpoint ? { endpoint } : {}),
});
