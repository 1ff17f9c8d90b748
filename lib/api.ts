import { Stack } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_BASE_PATH } from '#contract/limits';
import type { RouteDefinition } from '#lambdas/definitions/routes';
import type { SecretsStackConfig } from './config';
import { addGatewayResponses } from './gateway-responses';

const STAGE_NAME = 'live';
const API_LOG_RETENTION = RetentionDays.ONE_MONTH;

/** One JSON line per request, the gateway's own answers too; the path is the template, never a secret's id. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    requestTime: AccessLogField.contextRequestTime(),
    sourceIp: AccessLogField.contextIdentitySourceIp(),
    httpMethod: AccessLogField.contextHttpMethod(),
    resourcePath: AccessLogField.contextResourcePath(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    responseLatency: AccessLogField.contextResponseLatency(),
    integrationStatus: AccessLogField.contextIntegrationStatus(),
    integrationLatency: AccessLogField.contextIntegrationLatency(),
    integrationError: AccessLogField.contextIntegrationErrorMessage(),
    errorType: AccessLogField.contextErrorResponseType(),
    errorMessage: AccessLogField.contextErrorMessage(),
  }),
);

export interface SecretsApiProps {
  readonly throttle: SecretsStackConfig['throttle'];
  /** Create the role API Gateway logs with and make it the account's, in this region (context apiGatewayCloudWatchRole). */
  readonly cloudWatchRole: boolean;
}

/** The regional REST API: one stage, logged and throttled, answering errors in the contract's shape. */
export class SecretsApi extends Construct {
  readonly restApi: RestApi;

  constructor(scope: Construct, id: string, { throttle, cloudWatchRole }: SecretsApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: API_LOG_RETENTION });
    this.restApi = new RestApi(this, 'RestApi', {
      // API Gateway's metrics go by API name: the default is shared by countless CDK apps.
      restApiName: Stack.of(this).stackName,
      description: 'One-time secrets API',
      endpointTypes: [EndpointType.REGIONAL],
      // Logging needs the account's API Gateway CloudWatch role, shared by every API: the operator's choice (docs/deploy.md).
      cloudWatchRole,
      deployOptions: {
        stageName: STAGE_NAME,
        throttlingRateLimit: throttle.rateLimit,
        throttlingBurstLimit: throttle.burstLimit,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
        // Errors only, and never bodies: data tracing would copy secrets and API keys into logs.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
      },
    });

    // Created first, so that the execution log group gets our retention rather than none.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${STAGE_NAME}`,
      retention: API_LOG_RETENTION,
    });
    this.restApi.deploymentStage.node.addDependency(executionLogs);

    addGatewayResponses(this.restApi);
  }

  addRoute(route: RouteDefinition, handler: IFunction): Method {
    return this.restApi.root.resourceForPath(`${API_BASE_PATH}${route.path}`).addMethod(route.method, new LambdaIntegration(handler));
  }

  /** The API's public base URL, `<stage URL>api/v1`. */
  get baseUrl(): string {
    return this.restApi.urlForPath(API_BASE_PATH);
  }

  /** The URL of a path, built without the stage resource, which would make functions depend on it in a cycle. */
  urlForPathWithoutStageReference(path: string): string {
    return `https://${this.domainName}${this.stagePath}${path}`;
  }

  /** The API's regional host name, built without a reference to the stage (see above). */
  get domainName(): string {
    const stack = Stack.of(this);
    return `${this.restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
  }

  /** `/<stage>`: what comes before the resources' paths in every URL of the API. */
  get stagePath(): string {
    return `/${STAGE_NAME}`;
  }
}
