import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { randomUUID } from 'node:crypto';
import { LOG_MESSAGES, METRIC_DIMENSIONS } from '../definitions/observability';
import { routeOfRequest, routeTemplate } from '../definitions/routes';
import { logger, metrics } from '../telemetry/powertools';
import { HttpError } from './http-error';
import type { RouteMiddleware, RouteRequest } from './route-context';

/** What a request line says when the event matches no row of the route table (never its path). */
const UNKNOWN_ROUTE = 'unknown route';

/** Logs one line per request (route template, never the path; status; duration) and counts its status. */
export function requestTelemetry(): RouteMiddleware {
  const finish = (request: RouteRequest): void => {
    const route = routeOfRequest(request.event.httpMethod, request.event.resource);
    const template = route ? routeTemplate(route) : UNKNOWN_ROUTE;
    const status = request.response?.statusCode ?? 500;
    const line = { route: template, status, durationMs: Date.now() - request.context.requestTime };
    const error = request.error;
    if (status >= 500) {
      // Only the error's name and message: never the event, whose body may hold secret data.
      const unexpected = error && !(error instanceof HttpError) ? { error: { name: error.name, message: error.message } } : {};
      logger.error(LOG_MESSAGES.request, { ...line, ...unexpected });
    } else {
      logger.info(LOG_MESSAGES.request, line);
    }
    const counted = route?.counts?.[status];
    if (counted) {
      metrics.addDimension(METRIC_DIMENSIONS.route, template);
      metrics.addMetric(counted, MetricUnit.Count, 1);
    }
  };
  return {
    before: (request) => {
      request.context.requestTime = Date.now();
      request.context.requestId = request.event.requestContext?.requestId ?? randomUUID();
      logger.setCorrelationId(request.context.requestId);
    },
    after: finish,
    onError: finish,
  };
}
