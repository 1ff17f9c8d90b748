import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ENV } from '../lambdas/definitions/env';
import { API_BASE_PATH } from '../lambdas/definitions/limits';
import { ROUTES } from '../lambdas/definitions/routes';
import { KEYS_TABLE, SECRETS_TABLE } from '../lambdas/definitions/tables';
import { SecretsApi } from './api';
import type { SecretsStackConfig } from './config';
import { Monitoring } from './monitoring';
import { acknowledgeNagFindings } from './nag-suppressions';
import { routeFunction } from './route-functions';
import { tableFromDefinition } from './tables';
import { WebhookAlarms } from './webhook-alarms';
import { WebhookPipeline } from './webhook-pipeline';

export interface SecretsStackProps extends StackProps {
  readonly config: SecretsStackConfig;
}

/**
 * The whole service: two tables, one function per route, the REST API in front of them, the
 * webhook pipeline fed by the secrets table's stream, with alarms on what it could not deliver,
 * and a dashboard, with an alarm on the API's 5xx answers.
 */
export class SecretsStack extends Stack {
  constructor(scope: Construct, id: string, { config, ...stackProps }: SecretsStackProps) {
    super(scope, id, stackProps);

    const tables = {
      keys: tableFromDefinition(this, KEYS_TABLE),
      secrets: tableFromDefinition(this, SECRETS_TABLE),
    };
    const api = new SecretsApi(this, 'Api', { throttle: config.throttle });

    const environment = {
      [KEYS_TABLE.envVar]: tables.keys.tableName,
      [SECRETS_TABLE.envVar]: tables.secrets.tableName,
      [ENV.siteUrl]: config.siteUrl ?? api.urlForPathWithoutStageReference(`${API_BASE_PATH}${secretLinkBasePath()}`),
      [ENV.keysPerIpPerHour]: String(config.keysPerIpPerHour),
    };
    for (const route of ROUTES) {
      const { function: handler } = routeFunction(this, `${pascalCase(route.name)}Route`, {
        route,
        tables,
        environment,
        logLevel: config.logLevel,
      });
      api.addRoute(route, handler);
    }

    const webhooks = new WebhookPipeline(this, 'Webhooks', {
      tables,
      retryBaseMs: config.webhookRetryBaseMs,
      logLevel: config.logLevel,
    });
    const { jobs, deadLetters, fanOutFailures } = webhooks.queues;
    const alarms = new WebhookAlarms(this, 'WebhookAlarms', { deadLetters, fanOutFailures, email: config.alarmEmail });
    const monitoring = new Monitoring(this, 'Monitoring', { restApi: api.restApi, alarms: alarms.alarms });
    alarms.notify(monitoring.serverErrorsAlarm);

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the API, {base_url} in the spec', value: api.baseUrl });
    new CfnOutput(this, 'WebhookQueueUrl', {
      description: 'Webhook jobs queue, where dead letters go back to: npm run dlq -- redrive --dlq-url <WebhookDeadLetterQueueUrl> --queue-url <this URL>',
      value: jobs.queueUrl,
    });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', {
      description: 'Webhook jobs that failed every attempt: npm run dlq -- list --dlq-url <this URL>',
      value: deadLetters.queueUrl,
    });
    new CfnOutput(this, 'WebhookAlarmTopicArn', {
      description:
        'SNS topic told when the API answers 5xx, webhooks land in the dead-letter queue or the fan-out gives up on stream records; subscribe to it',
      value: alarms.topic.topicArn,
    });
    new CfnOutput(this, 'DashboardUrl', {
      description: 'CloudWatch dashboard: API traffic, errors and latency, secrets, webhooks, alarms',
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards:name=${monitoring.dashboard.dashboardName}`,
    });

    acknowledgeNagFindings({
      api: api.restApi,
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
