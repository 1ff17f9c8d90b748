import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_STACK_NAME } from '#lambdas/definitions/deployment';
import { ENV } from '#lambdas/definitions/env';
import { readStackConfig } from '#lib/config';
import { SecretsStack } from '#lib/secrets-stack';
import { apiServerErrorsAlarmId } from './support/monitoring';
import { assemblyDirectory, sharedSynthesis, synthesize } from './support/synth';
import { at, resource, resourcesOfType, templateJson } from './support/template';

/**
 * Names a resource type gives itself in an account and region (or, for CloudFront, in the whole
 * account): two stages must not share one. Where the template sets none, CloudFormation makes one
 * up from the stack's name.
 */
const PHYSICAL_NAMES: Record<string, readonly string[][]> = {
  'AWS::ApiGateway::RestApi': [['Name']],
  'AWS::CloudFront::Function': [['Name']],
  'AWS::CloudFront::ResponseHeadersPolicy': [['ResponseHeadersPolicyConfig', 'Name']],
  'AWS::CloudFront::OriginAccessControl': [['OriginAccessControlConfig', 'Name']],
  'AWS::CloudFront::CachePolicy': [['CachePolicyConfig', 'Name']],
  'AWS::CloudFront::OriginRequestPolicy': [['OriginRequestPolicyConfig', 'Name']],
  'AWS::CloudWatch::Alarm': [['AlarmName']],
  'AWS::CloudWatch::Dashboard': [['DashboardName']],
  'AWS::DynamoDB::Table': [['TableName']],
  'AWS::IAM::Role': [['RoleName']],
  'AWS::Lambda::Function': [['FunctionName']],
  'AWS::Logs::LogGroup': [['LogGroupName']],
  'AWS::S3::Bucket': [['BucketName']],
  'AWS::SecretsManager::Secret': [['Name']],
  'AWS::SNS::Topic': [['TopicName']],
  'AWS::SQS::Queue': [['QueueName']],
};

/** The names a template fixes as plain text; a name joined from its own resources' ids is its own. */
function fixedNames(template: Template): string[] {
  return Object.values(templateJson(template).Resources).flatMap((res) =>
    (PHYSICAL_NAMES[res.Type] ?? []).map((path) => at(res.Properties, ...path)).filter((name): name is string => typeof name === 'string'),
  );
}

describe('context stackName', () => {
  const { stackName, template } = synthesize({ stackName: 'OneTimeSecrets-staging' });

  it('names the stack, and the REST API after it', () => {
    expect(stackName).toBe('OneTimeSecrets-staging');
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { Name: 'OneTimeSecrets-staging' });
  });

  it('is every function’s service name, which the dashboard reads the functions’ counts by', () => {
    for (const [, fn] of resourcesOfType(template, 'AWS::Lambda::Function').filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'))) {
      expect(at(fn.Properties, 'Environment', 'Variables', ENV.serviceName)).toBe('OneTimeSecrets-staging');
    }
    const dashboard = JSON.stringify(resourcesOfType(template, 'AWS::CloudWatch::Dashboard'));
    expect(dashboard).toContain('\\"service\\",\\"OneTimeSecrets-staging\\"');
    expect(dashboard).toContain('service=\\\\\\"OneTimeSecrets-staging\\\\\\"');
  });

  it('is what the 5xx alarm and the dashboard read the API’s metrics by', () => {
    expect(at(resource(template, apiServerErrorsAlarmId(template)).Properties, 'Dimensions')).toEqual([
      { Name: 'ApiName', Value: 'OneTimeSecrets-staging' },
    ]);
    expect(JSON.stringify(resourcesOfType(template, 'AWS::CloudWatch::Dashboard'))).toContain('\\"ApiName\\",\\"OneTimeSecrets-staging\\"');
  });

  it('defaults to the name the stack has always had', () => {
    expect(sharedSynthesis().stackName).toBe(DEFAULT_STACK_NAME);
  });
});

describe('two stages in one account and region', () => {
  const app = new App({ outdir: assemblyDirectory(), context: { 'aws:cdk:bundling-stacks': [] } });
  const env = { account: '123456789012', region: 'eu-west-1' };
  const stage = (stackName: string): SecretsStack => new SecretsStack(app, stackName, { config: { ...readStackConfig(app.node), stackName }, env });
  // Both stacks exist before either is synthesized: one assembly, as `cdk deploy --all` would build it.
  const [production, staging] = [stage('OneTimeSecrets'), stage('OneTimeSecrets-staging')].map((stack) => Template.fromStack(stack)) as [
    Template,
    Template,
  ];

  it('synthesize side by side, with no physical name in common', () => {
    const productionNames = fixedNames(production);
    expect(productionNames).toContain('OneTimeSecrets');
    expect(fixedNames(staging).filter((name) => productionNames.includes(name))).toEqual([]);
    expect(
      app
        .synth()
        .stacks.map((synthesized) => synthesized.stackName)
        .sort(),
    ).toEqual(['OneTimeSecrets', 'OneTimeSecrets-staging']);
  });

  it('leave the account’s API Gateway logging role alone, unless told to set it', () => {
    for (const template of [production, staging]) template.resourceCountIs('AWS::ApiGateway::Account', 0);
  });
});
