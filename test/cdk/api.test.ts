import { Match } from 'aws-cdk-lib/assertions';
import { ERRORS } from '#contract/errors';
import { API_BASE_PATH } from '#contract/limits';
import { DEFAULT_THROTTLE } from '#lambdas/definitions/deployment';
import { sharedSynthesis, synthesize } from './support/synth';
import { at, findDependencyCycle, getAttTarget, resource, resourcesOfType, templateJson } from './support/template';

const { template } = sharedSynthesis();

const gatewayResponse = (type: string): Record<string, unknown> | undefined => {
  const found = resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse').filter(
    ([, response]) => at(response.Properties, 'ResponseType') === type,
  );
  expect(found).toHaveLength(1);
  return found[0]?.[1].Properties;
};

const CONTRACT_HEADERS = {
  'gatewayresponse.header.content-type': "'application/json'",
  'gatewayresponse.header.cache-control': "'no-store'",
  'gatewayresponse.header.x-content-type-options': "'nosniff'",
  'gatewayresponse.header.x-request-id': 'context.requestId',
};

describe('REST API', () => {
  it('is a single regional API with one stage named live', () => {
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
    template.resourceCountIs('AWS::ApiGateway::Stage', 1);
    template.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'live' });
  });

  it('throttles the stage and logs errors and access, but never bodies', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [
        {
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit,
          ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        },
      ],
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context\\.requestId') },
    });
  });

  it('keeps request paths, which carry secret ids, out of the access log', () => {
    const format = String(at(resourcesOfType(template, 'AWS::ApiGateway::Stage')[0]?.[1].Properties, 'AccessLogSetting', 'Format'));
    expect(format).toContain('$context.resourcePath');
    expect(format).not.toContain('$context.path');
  });

  it('leaves the account’s API Gateway logging role alone by default: it is an account-wide setting', () => {
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    expect(resourcesOfType(template, 'AWS::IAM::Role').map(([, role]) => JSON.stringify(role))).not.toContainEqual(
      expect.stringContaining('AmazonAPIGatewayPushToCloudWatchLogs'),
    );
  });

  it('with apiGatewayCloudWatchRole=true, creates that role and sets it, and keeps both when the stack goes', () => {
    const withRole = synthesize({ apiGatewayCloudWatchRole: 'true' }).template;
    const [account] = resourcesOfType(withRole, 'AWS::ApiGateway::Account');
    const roleId = getAttTarget(at(account?.[1].Properties, 'CloudWatchRoleArn'))?.[0] ?? '';
    const role = resource(withRole, roleId);
    expect(at(role.Properties, 'AssumeRolePolicyDocument', 'Statement')).toEqual([
      expect.objectContaining({ Action: 'sts:AssumeRole', Principal: { Service: 'apigateway.amazonaws.com' } }),
    ]);
    expect(JSON.stringify(at(role.Properties, 'ManagedPolicyArns'))).toContain('service-role/AmazonAPIGatewayPushToCloudWatchLogs');
    expect(withRole.toJSON()).toMatchObject({ Resources: { [roleId]: { DeletionPolicy: 'Retain' } } });
    expect(account?.[1]).toMatchObject({ DeletionPolicy: 'Retain' });
  });

  it('outputs ApiUrl as the stage URL followed by the base path', () => {
    const [restApiId] = resourcesOfType(template, 'AWS::ApiGateway::RestApi')[0] ?? [];
    const [stageId] = resourcesOfType(template, 'AWS::ApiGateway::Stage')[0] ?? [];
    const stageUrl = ['https://', { Ref: restApiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', { Ref: stageId }];
    expect(templateJson(template).Outputs?.ApiUrl?.Value).toEqual({ 'Fn::Join': ['', [...stageUrl, API_BASE_PATH]] });
  });

  it('has no dependency cycle (SITE_URL must not reference the stage)', () => {
    expect(findDependencyCycle(template)).toBeUndefined();
  });
});

describe('gateway responses', () => {
  it.each([
    ['MISSING_AUTHENTICATION_TOKEN', '404', ERRORS.routeNotFound],
    ['INVALID_SIGNATURE', '404', ERRORS.routeNotFound],
    ['REQUEST_TOO_LARGE', '413', ERRORS.payloadTooLarge],
  ])('%s answers %s with the contract’s error body', (type, status, message) => {
    const response = gatewayResponse(type);
    expect(response?.StatusCode).toBe(status);
    expect(response?.ResponseParameters).toEqual(CONTRACT_HEADERS);
    expect(JSON.parse(String(at(response, 'ResponseTemplates', 'application/json')))).toEqual({ error: message });
  });

  it('THROTTLED answers 429 with the gateway’s message as the error and a retry-after', () => {
    const response = gatewayResponse('THROTTLED');
    expect(response?.StatusCode).toBe('429');
    expect(response?.ResponseParameters).toEqual({ ...CONTRACT_HEADERS, 'gatewayresponse.header.retry-after': "'1'" });
    expect(at(response, 'ResponseTemplates', 'application/json')).toBe('{"error":$context.error.messageString}');
  });

  it.each(['DEFAULT_4XX', 'DEFAULT_5XX'])('%s keeps each type’s status and wraps its message as the error', (type) => {
    const response = gatewayResponse(type);
    expect(response?.StatusCode).toBeUndefined();
    expect(response?.ResponseParameters).toEqual(CONTRACT_HEADERS);
    expect(at(response, 'ResponseTemplates', 'application/json')).toBe('{"error":$context.error.messageString}');
  });
});
