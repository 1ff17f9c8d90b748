import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ENV } from '../lambdas/definitions/env';
import { API_BASE_PATH } from '../lambdas/definitions/limits';
import { ROUTES } from '../lambdas/definitions/routes';
import { KEYS_TABLE, SECRETS_TABLE } from '../lambdas/definitions/tables';
import { SecretsApi } from './api';
import type { SecretsStackConfig } from './config';
import { acknowledgeNagFindings } from './nag-suppressions';
import { routeFunction } from './route-functions';
import { tableFromDefinition } from './tables';
import { WebhookAlarms } from './webhook-alarms';
import { WebhookPipeline } from './webhook-pipeline';

export interface SecretsStackProps extends StackProps {
  readonly config: SecretsStackConfig;
}

/**
 * The whole service: two tables, one function per route, the REST API in front of them, and the
 * webhook pipeline fed by the secrets table's stream, with alarms on what it could not deliver.
 */
export class SecretsStack extends Stack {
  constructor(scope: Construct, id: string, { config, ...stackProps }: SecretsStackProps) {
    super(scope, id, stackProps);

    const tables = {
      keys: tableFromDefinition(this, KEYS_TABLE, { pointInTimeRecovery: true }),
      secrets: tableFromDefinition(this, SECRETS_TABLE, { pointInTimeRecovery: config.secretsPointInTimeRecovery }),
    };
    const api = new SecretsApi(this, 'Api', { throttle: config.throttle });

    const environment = {
      [KEYS_TABLE.envVar]: tables.keys.tableName,
      [SECRETS_TABLE.envVar]: tables.secrets.tableName,
      [ENV.siteUrl]: config.siteUrl ?? api.urlForPathWithoutStageReference(`${API_BASE_PATH}${secretLinkBasePath()}`),
      [ENV.keysPerIpPerHour]: String(config.keysPerIpPerHour),
    };
    const routeHandlers = ROUTES.map((route) => {
      const { function: handler } = routeFunction(this, `${pascalCase(route.name)}Route`, { route, tables, environment });
      api.addRoute(route, handler);
      return handler;
    });

    const webhooks = new WebhookPipeline(this, 'Webhooks', { tables, retryBaseMs: config.webhookRetryBaseMs });
    const { jobs, deadLetters, fanOutFailures } = webhooks.queues;
    const alarms = new WebhookAlarms(this, 'WebhookAlarms', {
      deadLetters,
      fanOutFailures,
      fanOut: webhooks.fanOut.function,
      functions: [...routeHandlers, webhooks.fanOut.function, webhooks.delivery.function],
      email: config.alarmEmail,
    });

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the API, {base_url} in the spec', value: api.baseUrl });
    new CfnOutput(this, 'WebhookQueueUrl', {
      description: 'Webhook jobs queue, where dead letters go back to: npm run dlq -- redrive --dlq-url <WebhookDeadLetterQueueUrl> --queue-url <this URL>',
      value: jobs.queueUrl,
    });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', {
      description: 'Webhook jobs that failed every attempt: npm run dlq -- list --dlq-url <this URL>',
      value: deadLetters.queueUrl,
    });
    new CfnOutput(this, 'WebhookFanOutFailureQueueUrl', {
      description: 'Stream batches the webhook fan-out gave up on: npm run dlq -- replay --failures-url <this URL>',
      value: fanOutFailures.queueUrl,
    });
    new CfnOutput(this, 'WebhookAlarmTopicArn', {
      description: 'SNS topic told when webhooks land in the dead-letter queue, the fan-out gives up on or falls behind stream records, or a function fails; subscribe to it',
      value: alarms.topic.topicArn,
    });

    acknowledgeNagFindings({
      api: api.restApi,
      ...(config.secretsPointInTimeRecovery ? {} : { secretsWithoutRecovery: tables.secrets }),
      streamReader: webhooks.fanOut.role,
      fanOutFailures,
    });
  }
}

const CLAIM_ROUTE_NAME = 'secrets-claim';
const ID_SEGMENT = '/{id}';

/** Without a site of its own, a secret's link is its claim route: `<claim path>/<id>`. */
function secretLinkBasePath(): string {
  const claim = ROUTES.find((route) => route.name === CLAIM_ROUTE_NAME);
  if (!claim?.path.endsWith(ID_SEGMENT)) {
    throw new Error(`route table has no ${CLAIM_ROUTE_NAME} route ending in ${ID_SEGMENT}`);
  }
  return claim.path.slice(0, -ID_SEGMENT.length);
}

const pascalCase = (name: string): string =>
  name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
