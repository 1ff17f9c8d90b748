import { SETTINGS, settingRows } from '#lambdas/config/settings';
import { KEY_CREATION_LIMIT } from '#contract/limits';
import { ROUTES } from '#lambdas/definitions/routes';
import { TABLES } from '#lambdas/definitions/tables';
import { sharedSynthesis } from './support/synth';
import { at, refTarget, resource, resourcesOfType, routeFunctionId, routeMethodId, tableLogicalId } from './support/template';

const { template } = sharedSynthesis();
const methods = resourcesOfType(template, 'AWS::ApiGateway::Method');
const functions = ROUTES.map((route) => {
  const functionId = routeFunctionId(template, route);
  return [functionId, resource(template, functionId)] as const;
});

describe('routes', () => {
  it('has exactly one method per route and no others', () => {
    expect(methods).toHaveLength(ROUTES.length);
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s is a Lambda proxy method under the base path, open to the handler’s own auth',
    (_, route) => {
      const method = resource(template, routeMethodId(template, route));
      expect(at(method.Properties, 'Integration', 'Type')).toBe('AWS_PROXY');
      expect(at(method.Properties, 'Integration', 'IntegrationHttpMethod')).toBe('POST');
      expect(at(method.Properties, 'AuthorizationType')).toBe('NONE');
    },
  );

  it('gives every route a function of its own', () => {
    expect(new Set(functions.map(([id]) => id)).size).toBe(ROUTES.length);
  });
});

describe('functions', () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))('%s runs on nodejs24.x arm64, 512 MB, 10 s', (_, route) => {
    const fn = resource(template, routeFunctionId(template, route));
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 10,
      Handler: 'index.handler',
    });
  });

  it('logs to a log group of its own with a retention', () => {
    const logGroups = functions.map(([, fn]) => at(fn.Properties, 'LoggingConfig', 'LogGroup'));
    expect(new Set(logGroups.map((group) => JSON.stringify(group))).size).toBe(functions.length);
    for (const group of logGroups) {
      expect(at(resource(template, refTarget(group) ?? '').Properties, 'RetentionInDays')).toBe(30);
    }
  });

  it.each(functions)('%s learns each table’s name through the definition’s env var', (_, fn) => {
    for (const table of TABLES) {
      expect(at(fn.Properties, 'Environment', 'Variables', table.envVar)).toEqual({ Ref: tableLogicalId(template, table) });
    }
  });

  const routeNamed = (id: string) => ROUTES.find((route) => routeFunctionId(template, route) === id)?.name;
  const functionOf = (name: string) => functions.find(([id]) => routeNamed(id) === name)?.[1];

  it('gives POST /keys the key-creation limit default', () => {
    expect(at(functionOf('keys-create')?.Properties, 'Environment', 'Variables')).toHaveProperty(
      SETTINGS.keysPerIpPerHour.env,
      String(KEY_CREATION_LIMIT.defaultPerIpPerHour),
    );
  });

  it.each(SETTINGS.siteUrl.functions)('%s gets SITE_URL, the CloudFront distribution serving the pages and the API by default', (name) => {
    const distributionId = resourcesOfType(template, 'AWS::CloudFront::Distribution')[0]?.[0];
    expect(at(functionOf(name)?.Properties, 'Environment', 'Variables', SETTINGS.siteUrl.env)).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]],
    });
  });

  it.each(functions)('%s gets no setting it does not read (lambdas/config/settings.ts names its readers)', (id, fn) => {
    const name = routeNamed(id) ?? '';
    const given = Object.keys(at(fn.Properties, 'Environment', 'Variables') as object).filter((variable) =>
      settingRows().some(([, row]) => row.env === variable),
    );
    const reads = settingRows((row) => row.functions === 'all' || (row.functions?.some((reader) => reader === name) ?? false)).map(
      ([, row]) => row.env,
    );
    expect(reads).toEqual(expect.arrayContaining(given));
    expect(given).toContain(SETTINGS.logLevel.env);
  });

  it.each(functions)('%s knows the origin secret only if it reads the client address', (id, fn) => {
    const route = ROUTES.find((candidate) => routeFunctionId(template, candidate) === id);
    const variables = at(fn.Properties, 'Environment', 'Variables');
    if (SETTINGS.originSecret.functions.some((name) => name === route?.name)) {
      const secretId = resourcesOfType(template, 'AWS::SecretsManager::Secret')[0]?.[0];
      // A dynamic reference: CloudFormation resolves it at deploy time, the template holds no value.
      expect(variables).toHaveProperty(SETTINGS.originSecret.env, {
        'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']],
      });
    } else {
      expect(variables).not.toHaveProperty(SETTINGS.originSecret.env);
    }
  });
});
