import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { ENV } from '../definitions/env';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../definitions/observability';

/**
 * Every function's Logger and Metrics, one of each per execution environment as Powertools
 * intends. The Logger prints one JSON object per line to stdout at POWERTOOLS_LOG_LEVEL; Metrics
 * prints CloudWatch embedded metric format (EMF) lines, which Lambda turns into metrics.
 * Per-invocation state (the correlation id, metrics not yet flushed) lives in Lambda's invoke
 * store when invocations share a process (local mode, see local/invocation-scope.ts).
 */
// Powertools reads POWERTOOLS_SERVICE_NAME itself only when no name is given, and then defaults to
// "service_undefined"; this keeps ours as the default.
const serviceName = process.env[ENV.serviceName] || SERVICE_NAME;

export const logger = new Logger({ serviceName });

export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName, logger });
