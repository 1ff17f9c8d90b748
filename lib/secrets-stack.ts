import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { allowedAccountsEnv } from '#lambdas/config/create-access';
import { ENV } from '#lambdas/definitions/env';
import { ROUTES } from '#lambdas/definitions/routes';
import { PAGES_CONFIG_FILE, pagesConfig } from '#contract/site';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { SecretsApi } from './api';
import type { SecretsStackConfig } from './config';
import { Monitoring } from './monitoring';
import { acknowledgeNagFindings } from './nag-suppressions';
import { routeFunction } from './route-functions';
import { SignIn, signInOrigins } from './sign-in';
import { SecretsSite } from './site';
import { tableFromDefinition } from './tables';
import { WebhookAlarms } from './webhook-alarms';
import { ApiFirewall } from './waf';
import { WebhookPipeline } from './webhook-pipeline';

export interface SecretsStackProps extends StackProps {
  readonly config: SecretsStackConfig;
}

/**
 * The whole service: two tables, one function per route, the REST API in front of them with its
 * web ACL, the pages and the API behind one CloudFront distribution, and the webhook pipeline fed by the
 * secrets table's stream, with alarms on what it could not deliver, and a dashboard, with an alarm
 * on the API's 5xx answers.
 */
export class SecretsStack extends Stack {
  constructor(scope: Construct, id: string, { config, ...stackProps }: SecretsStackProps) {
    super(scope, id, stackProps);

    const tables = {
      keys: tableFromDefinition(this, KEYS_TABLE, { pointInTimeRecovery: true }),
      secrets: tableFromDefinition(this, SECRETS_TABLE, { pointInTimeRecovery: config.secretsPointInTimeRecovery }),
    };
    const api = new SecretsApi(this, 'Api', { throttle: config.throttle, cloudWatchRole: config.apiGatewayCloudWatchRole });
    const site = new SecretsSite(this, 'Site', {
      api,
      customDomain: config.customDomain,
      forwardViewerIp: config.waf !== undefined,
      ...(config.signIn ? { signInOrigins: signInOrigins(this, config.signIn.issuer) } : {}),
    });
    if (config.waf) {
      new ApiFirewall(this, 'Firewall', {
        stage: api.restApi.deploymentStage,
        originSecret: site.originSecret,
        requestsPerAddress: config.waf.requestsPerAddress,
      });
    }

    const siteUrl = config.siteUrl ?? site.url;
    const signInConstruct = config.signIn ? new SignIn(this, 'SignIn', { issuer: config.signIn.issuer, siteUrl }) : undefined;
    const signIn = signInConstruct?.issuer;
    // The pages learn the mode and the issuer from a file deployed beside them.
    site.deployment.addSource(
      Source.jsonData(PAGES_CONFIG_FILE, pagesConfig(signIn && { issuer: signIn.issuer, clientId: signIn.clientId, audience: signIn.audience })),
    );

    const environment = {
      [KEYS_TABLE.envVar]: tables.keys.tableName,
      [SECRETS_TABLE.envVar]: tables.secrets.tableName,
      [ENV.siteUrl]: siteUrl,
      [ENV.keysPerIpPerHour]: String(config.keysPerIpPerHour),
      [ENV.storedMiBPerKeyPerDay]: String(config.storedMiBPerKeyPerDay),
      [ENV.storedMiBPerAddressPerDay]: String(config.storedMiBPerAddressPerDay),
      ...(signIn && config.signIn
        ? {
            [ENV.createAccess]: 'signed-in',
            [ENV.oidcIssuer]: signIn.issuer,
            [ENV.oidcAudience]: signIn.audience,
            ...(signIn.jwksUri ? { [ENV.oidcJwksUri]: signIn.jwksUri } : {}),
            ...allowedAccountsEnv(config.signIn.allowedAccounts),
          }
        : {}),
    };
    // Only the routes that read the client's address learn the origin secret (a deploy-time
    // reference, resolved by CloudFormation: the template holds none of it).
    const originSecret = { [ENV.originSecret]: site.originSecret.secretValue.unsafeUnwrap() };
    const webhooks = new WebhookPipeline(this, 'Webhooks', {
      tables,
      retryBaseMs: config.webhookRetryBaseMs,
      logLevel: config.logLevel,
    });
    const { jobs, deadLetters, fanOutFailures } = webhooks.queues;
    // Routes that queue webhook jobs (POST /keys/webhook/test) learn the queue and may send to it only.
    const jobsQueue = { [QUEUES.jobs.envVar]: jobs.queueUrl };
    const routeHandlers = ROUTES.map((route) => {
      const { function: handler } = routeFunction(this, `${pascalCase(route.name)}Route`, {
        route,
        tables,
        environment: { ...environment, ...(route.readsClientAddress ? originSecret : {}), ...(route.sendsWebhookJobs ? jobsQueue : {}) },
        logLevel: config.logLevel,
      });
      if (route.sendsWebhookJobs) handler.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [jobs.queueArn] }));
      api.addRoute(route, handler);
      return handler;
    });

    const alarms = new WebhookAlarms(this, 'WebhookAlarms', {
      deadLetters,
      fanOutFailures,
      fanOut: webhooks.fanOut.function,
      functions: [...routeHandlers, webhooks.fanOut.function, webhooks.delivery.function],
      email: config.alarmEmail,
    });
    const monitoring = new Monitoring(this, 'Monitoring', {
      restApi: api.restApi,
      alarms: alarms.alarms,
      tables: Object.values(tables),
      writeUnitsPerHour: config.writeUnitsAlarmPerHour,
    });
    alarms.notify(monitoring.serverErrorsAlarm);
    alarms.notify(monitoring.writeUnitsAlarm);

    new CfnOutput(this, 'SiteUrl', {
      description: '{site_url}: the share page, secret links, and the API at <this URL>/api/v1 ({base_url}) on the same origin',
      value: site.url,
    });
    new CfnOutput(this, 'DistributionDomainName', {
      description: 'Where a custom domain (context domainName) must point: a CNAME, or a Route 53 alias',
      value: site.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'ApiUrl', {
      description: "The API at API Gateway's own URL; clients should use <SiteUrl>/api/v1, where POST /keys sees their address",
      value: api.baseUrl,
    });
    new CfnOutput(this, 'WebhookQueueUrl', {
      description:
        'Webhook jobs queue, where dead letters go back to: npm run dlq -- redrive --dlq-url <WebhookDeadLetterQueueUrl> --queue-url <this URL>',
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
      description:
        'SNS topic told when the API answers 5xx, webhooks land in the dead-letter queue, the fan-out gives up on or falls behind stream records, or a function fails; subscribe to it',
      value: alarms.topic.topicArn,
    });
    if (signInConstruct?.userPool) {
      new CfnOutput(this, 'UserPoolId', {
        description:
          'createAccess=signed-in: the people who may create secrets. Add one: aws cognito-idp admin-create-user --user-pool-id <this id> --username <email>',
        value: signInConstruct.userPool.userPoolId,
      });
    }
    new CfnOutput(this, 'DashboardUrl', {
      description: 'CloudWatch dashboard: API traffic, errors and latency, secrets, webhooks, alarms',
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards:name=${monitoring.dashboard.dashboardName}`,
    });

    acknowledgeNagFindings({
      api: api.restApi,
      accountCloudWatchRole: config.apiGatewayCloudWatchRole,
      ...(config.secretsPointInTimeRecovery ? {} : { secretsWithoutRecovery: tables.secrets }),
      streamReader: webhooks.fanOut.role,
      fanOutFailures,
      consumedSecrets: webhooks.queues.consumedSecrets,
      site,
      customDomain: config.customDomain !== undefined,
      webAcl: config.waf !== undefined,
      ...(signInConstruct?.userPool ? { userPool: signInConstruct.userPool } : {}),
    });
  }
}

const pascalCase = (name: string): string =>
  name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
