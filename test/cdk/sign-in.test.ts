import type { Template } from 'aws-cdk-lib/assertions';
import { CLI_LOOPBACK_REDIRECT } from '#contract/create-access';
import { SETTINGS } from '#lambdas/config/settings';
import { ROUTES } from '#lambdas/definitions/routes';
import { DEFAULT_WRITE_UNITS_ALARM_PER_HOUR } from '#lambdas/definitions/deployment';
import { sharedSynthesis, synthesize } from './support/synth';
import { at, resource, resourcesOfType, routeFunctionId, templateJson } from './support/template';

/** createAccess: open (the default, the contract), signed-in with the stack's Cognito pool, or with the team's issuer. */

const keysCreate = ROUTES.find((route) => route.name === 'keys-create');
if (!keysCreate) throw new Error('no keys-create route');

const keysCreateVariables = (template: Template): Record<string, unknown> =>
  at(resource(template, routeFunctionId(template, keysCreate)).Properties, 'Environment', 'Variables') as Record<string, unknown>;

/** The share and reveal pages' Content-Security-Policy, as the distribution's headers policy sends it. */
const pagesCsp = (template: Template): string => {
  const [[, policy] = []] = resourcesOfType(template, 'AWS::CloudFront::ResponseHeadersPolicy');
  return JSON.stringify(
    at(policy?.Properties, 'ResponseHeadersPolicyConfig', 'SecurityHeadersConfig', 'ContentSecurityPolicy', 'ContentSecurityPolicy'),
  );
};

/** The pages' deployment: how many sources it copies into the bucket (the build, and config.json). */
const pageSources = (template: Template): unknown[] => {
  const [deployment] = resourcesOfType(template, 'Custom::CDKBucketDeployment');
  return at(deployment?.[1].Properties, 'SourceObjectKeys') as unknown[];
};

describe('open (default)', () => {
  const { template } = sharedSynthesis();

  it('creates no user pool and tells POST /keys nothing of sign-in', () => {
    expect(resourcesOfType(template, 'AWS::Cognito::UserPool')).toEqual([]);
    expect(templateJson(template).Outputs).not.toHaveProperty('UserPoolId');
    const variables = keysCreateVariables(template);
    for (const name of [SETTINGS.createAccess.env, SETTINGS.oidcIssuer.env, SETTINGS.oidcAudience.env, SETTINGS.oidcJwksUri.env])
      expect(variables).not.toHaveProperty(name);
  });

  it('deploys config.json beside the pages', () => {
    expect(pageSources(template)).toHaveLength(2);
  });

  it('lets the pages connect to their own origin only', () => {
    expect(pagesCsp(template)).toContain("connect-src 'self';");
  });

  it("alarms on the tables' write units in an hour, to the alarm topic", () => {
    const [[, alarm] = []] = resourcesOfType(template, 'AWS::CloudWatch::Alarm').filter(([id]) => id.includes('WriteUnitsAlarm'));
    expect(alarm?.Properties).toMatchObject({
      Threshold: DEFAULT_WRITE_UNITS_ALARM_PER_HOUR,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
    });
    const metrics = at(alarm?.Properties, 'Metrics') as { MetricStat?: { Metric: { MetricName: string }; Period: number } }[];
    const stats = metrics.flatMap((metric) => (metric.MetricStat ? [metric.MetricStat] : []));
    expect(stats.map((stat) => [stat.Metric.MetricName, stat.Period])).toEqual([
      ['ConsumedWriteCapacityUnits', 3600],
      ['ConsumedWriteCapacityUnits', 3600],
    ]);
    const [[topicId] = []] = resourcesOfType(template, 'AWS::SNS::Topic');
    expect(at(alarm?.Properties, 'AlarmActions')).toEqual([{ Ref: topicId }]);
  });
});

describe("signed-in with the stack's Cognito user pool", () => {
  const { template } = synthesize({ createAccess: 'signed-in', writeUnitsAlarmPerHour: 1000 });
  const [[poolId, pool] = []] = resourcesOfType(template, 'AWS::Cognito::UserPool');
  const [[, client] = []] = resourcesOfType(template, 'AWS::Cognito::UserPoolClient');

  it('names the pool in an output, for adding people', () => {
    expect(templateJson(template).Outputs?.UserPoolId?.Value).toEqual({ Ref: poolId });
  });

  it('has no self-sign-up, optional MFA, and a hosted sign-in domain', () => {
    expect(at(pool?.Properties, 'AdminCreateUserConfig', 'AllowAdminCreateUserOnly')).toBe(true);
    expect(at(pool?.Properties, 'MfaConfiguration')).toBe('OPTIONAL');
    expect(resourcesOfType(template, 'AWS::Cognito::UserPoolDomain')).toHaveLength(1);
  });

  it("gives the pages and the CLI a public client: authorization code only, back to the site or the CLI's loopback", () => {
    expect(client?.Properties).toMatchObject({ GenerateSecret: false, AllowedOAuthFlows: ['code'], AllowedOAuthFlowsUserPoolClient: true });
    expect(at(client?.Properties, 'AllowedOAuthScopes')).toEqual(expect.arrayContaining(['openid']));
    const [[distributionId] = []] = resourcesOfType(template, 'AWS::CloudFront::Distribution');
    expect(at(client?.Properties, 'CallbackURLs')).toEqual([
      { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/']] },
      CLI_LOOPBACK_REDIRECT,
    ]);
  });

  it("tells POST /keys the pool's issuer, its client as audience, and its JWKS", () => {
    const variables = keysCreateVariables(template);
    expect(variables[SETTINGS.createAccess.env]).toBe('signed-in');
    expect(JSON.stringify(variables[SETTINGS.oidcIssuer.env])).toContain(`"Ref":"${poolId}"`);
    expect(JSON.stringify(variables[SETTINGS.oidcJwksUri.env])).toContain('/.well-known/jwks.json');
    expect(variables[SETTINGS.oidcAudience.env]).toEqual({ Ref: resourcesOfType(template, 'AWS::Cognito::UserPoolClient')[0]?.[0] });
  });

  it('lets in every account of the pool, which only an administrator adds; or the groups given, from the claim Cognito fills', () => {
    expect(keysCreateVariables(template)[SETTINGS.oidcAnyAccount.env]).toBe('true');
    const groups = synthesize({ createAccess: 'signed-in', oidcAllowedGroups: 'onetime' });
    expect(keysCreateVariables(groups.template)).toMatchObject({
      [SETTINGS.oidcAllowedGroups.env]: 'onetime',
      [SETTINGS.oidcGroupsClaim.env]: 'cognito:groups',
    });
    expect(keysCreateVariables(groups.template)).not.toHaveProperty(SETTINGS.oidcAnyAccount.env);
  });

  it("lets the share page reach Cognito's issuer and hosted sign-in, and no other origin", () => {
    const csp = pagesCsp(template);
    expect(csp).toMatch(/connect-src 'self' https:\/\/cognito-idp\.[^ ;]+ https:\/\/[^ ;]+\.auth\.[^ ;]+\.amazoncognito\.com;/);
  });

  it('takes the write-units alarm threshold from context', () => {
    const [[, alarm] = []] = resourcesOfType(template, 'AWS::CloudWatch::Alarm').filter(([id]) => id.includes('WriteUnitsAlarm'));
    expect(at(alarm?.Properties, 'Threshold')).toBe(1000);
  });
});

describe("signed-in with the team's own issuer", () => {
  const issuer = { oidcIssuer: 'https://login.example.com/realms/team', oidcAudience: 'onetime-api', oidcClientId: 'onetime-pages' };
  const { template } = synthesize({ createAccess: 'signed-in', ...issuer, oidcAllowedDomains: 'example.com' });

  it('creates no user pool; POST /keys checks the given issuer, audience and accounts, its JWKS from discovery', () => {
    expect(resourcesOfType(template, 'AWS::Cognito::UserPool')).toEqual([]);
    const variables = keysCreateVariables(template);
    expect(variables).toMatchObject({
      [SETTINGS.createAccess.env]: 'signed-in',
      [SETTINGS.oidcIssuer.env]: issuer.oidcIssuer,
      [SETTINGS.oidcAudience.env]: issuer.oidcAudience,
      [SETTINGS.oidcAllowedDomains.env]: 'example.com',
    });
    expect(variables).not.toHaveProperty(SETTINGS.oidcJwksUri.env);
  });

  it('fails without an allow-list: every account the issuer vouches for would get a full key', () => {
    expect(() => synthesize({ createAccess: 'signed-in', ...issuer })).toThrow(
      /signed-in with oidcIssuer needs oidcAllowedDomains, oidcAllowedGroups or oidcAnyAccount=true/,
    );
  });

  it('takes groups from the claim named, or any account when told so explicitly', () => {
    const groups = synthesize({ createAccess: 'signed-in', ...issuer, oidcAllowedGroups: 'onetime,ops', oidcGroupsClaim: 'roles' });
    expect(keysCreateVariables(groups.template)).toMatchObject({
      [SETTINGS.oidcAllowedGroups.env]: 'onetime,ops',
      [SETTINGS.oidcGroupsClaim.env]: 'roles',
    });
    const any = synthesize({ createAccess: 'signed-in', ...issuer, oidcAnyAccount: 'true' });
    expect(keysCreateVariables(any.template)).toMatchObject({ [SETTINGS.oidcAnyAccount.env]: 'true' });
    expect(() => synthesize({ createAccess: 'signed-in', ...issuer, oidcAnyAccount: 'true', oidcAllowedDomains: 'example.com' })).toThrow(
      /oidcAnyAccount=true goes without oidcAllowedDomains and oidcAllowedGroups/,
    );
  });

  it("lets the share page reach the issuer's origin, and no other", () => {
    expect(pagesCsp(template)).toContain("connect-src 'self' https://login.example.com;");
  });

  it('refuses origins to connect to without an issuer of its own, or that are no https origins', () => {
    expect(() => synthesize({ createAccess: 'signed-in', oidcConnectOrigins: 'https://oauth2.googleapis.com' })).toThrow(
      /oidcConnectOrigins goes with oidcIssuer/,
    );
    for (const origins of [
      'http://oauth2.googleapis.com',
      'https://oauth2.googleapis.com/token',
      'https://oauth2.googleapis.com https://evil.example',
      "https://a.example;script-src 'unsafe-inline'",
      'https://a.example,',
      '*',
    ]) {
      expect(() => synthesize({ createAccess: 'signed-in', ...issuer, oidcConnectOrigins: origins })).toThrow(
        /context oidcConnectOrigins must be up to 10 https origins/,
      );
    }
  });

  it('refuses an issuer without its audience and client id', () => {
    expect(() => synthesize({ createAccess: 'signed-in', oidcIssuer: issuer.oidcIssuer })).toThrow(/oidcIssuer and oidcAudience go together/);
  });
});

describe('signed-in with an issuer whose token endpoint is on another origin (Google)', () => {
  const google = {
    oidcIssuer: 'https://accounts.google.com',
    oidcAudience: '1234-abc.apps.googleusercontent.com',
    oidcClientId: '1234-abc.apps.googleusercontent.com',
  };
  const { template } = synthesize({
    createAccess: 'signed-in',
    ...google,
    oidcConnectOrigins: 'https://oauth2.googleapis.com',
    oidcAllowedDomains: 'example.com',
  });

  it("lets the share page reach the issuer's origin and the token endpoint's, and no other", () => {
    expect(pagesCsp(template)).toContain("connect-src 'self' https://accounts.google.com https://oauth2.googleapis.com;");
  });

  it('tells the pages and POST /keys only the issuer: the extra origins are for the CSP alone', () => {
    expect(keysCreateVariables(template)).toMatchObject({
      [SETTINGS.oidcIssuer.env]: google.oidcIssuer,
      [SETTINGS.oidcAudience.env]: google.oidcAudience,
    });
    expect(JSON.stringify(keysCreateVariables(template))).not.toContain('oauth2.googleapis.com');
  });
});
