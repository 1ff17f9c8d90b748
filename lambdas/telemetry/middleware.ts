import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import { logger, metrics } from './powertools';

/**
 * What every function wraps its handler in, outermost, so that it sees every outcome: the Lambda
 * context on each log line, and the invocation's metrics flushed when it ends.
 */
export const telemetryMiddlewares = (): MiddlewareObj[] => [
  // logEvent false whatever POWERTOOLS_LOGGER_LOG_EVENT says: an event holds secret data and API keys.
  injectLambdaContext(logger, { logEvent: false, resetKeys: true }),
  flushMetrics(),
];

/**
 * Publishes what the invocation counted as one EMF line, errors included. Not Powertools'
 * logMetrics middleware: it warns "No application metrics to publish" on every invocation that
 * counted nothing, which is most of them (key routes, refused requests, health checks).
 */
function flushMetrics(): MiddlewareObj {
  const flush = (): void => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}
