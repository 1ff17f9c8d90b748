import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { ENV } from '../definitions/env';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../definitions/observability';

/** Every function's Logger and Metrics, one of each per execution environment as Powertools intends. */
// Powertools falls back to "service_undefined" when no name is given; this keeps ours as the default.
const serviceName = process.env[ENV.serviceName] || SERVICE_NAME;

export const logger = new Logger({ serviceName });

export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName, logger });
