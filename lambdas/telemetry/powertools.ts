import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../definitions/observability';

/**
 * Every function's Logger and Metrics, one of each per execution environment as Powertools
 * intends. The Logger prints one JSON object per line to stdout at POWERTOOLS_LOG_LEVEL; Metrics
 * prints CloudWatch embedded metric format (EMF) lines, which Lambda turns into metrics.
 * Per-invocation state (the correlation id, metrics not yet flushed) lives in Lambda's invoke
 * store when invocations share a process (local mode, see local/invocation-scope.ts).
 */
export const logger = new Logger({ serviceName: SERVICE_NAME });

export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME, logger });
