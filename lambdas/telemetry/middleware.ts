import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import { logger, metrics } from './powertools';

/** What every function wraps its handler in, outermost, so that it sees every outcome. */
export const telemetryMiddlewares = (): MiddlewareObj[] => [
  // logEvent false whatever POWERTOOLS_LOGGER_LOG_EVENT says: an event holds secret data and API keys.
  injectLambdaContext(logger, { logEvent: false, resetKeys: true }),
  flushMetrics(),
];

/** Publishes the invocation's counts; not Powertools' logMetrics, which warns on every invocation that counted nothing. */
function flushMetrics(): MiddlewareObj {
  const flush = (): void => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}
