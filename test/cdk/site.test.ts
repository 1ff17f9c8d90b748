import { runInNewContext } from 'node:vm';
import { SETTINGS } from '#lambdas/config/settings';
import { API_BASE_PATH } from '#contract/limits';
import { ROUTES } from '#lambdas/definitions/routes';
import { API_PATH_PREFIX, EDGE_HEADERS, PAGE_CACHE_CONTROL, PAGE_FILES, PAGE_HEADERS } from '#contract/site';
import { sharedSynthesis, synthesize } from './support/synth';
import { at, getAttTarget, isRecord, resource, resourcesOfType, routeFunctionId, templateJson } from './support/template';

/** CloudFront's managed policies, by the ids AWS documents. */
const MANAGED = {
  cachingOptimized: '658327ea-f89d-4fab-a63d-7e88639e58f6',
  cachingDisabled: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
  allViewerExceptHostHeader: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
};

const { template } = sharedSynthesis();
const only = (type: string): [string, Record<string, unknown>] => {
  const found = resourcesOfType(template, type);
  expect(found).toHaveLength(1);
  const [id, { Properties }] = found[0] ?? ['', {}];
  return [id, Properties ?? {}];
};
const [distributionId, distribution] = only('AWS::CloudFront::Distribution');
const config = distribution.DistributionConfig as Record<string, unknown>;
const [bucketId, bucket] = only('AWS::S3::Bucket');
const [secretId] = only('AWS::SecretsManager::Secret');
const origins = config.Origins as Record<string, unknown>[];
const originById = (id: unknown): Record<string, unknown> | undefined => origins.find((origin) => origin.Id === id);
const apiBehaviour = (config.CacheBehaviors as Record<string, unknown>[])[0] ?? {};
const defaultBehaviour = config.DefaultCacheBehavior as Record<string, unknown>;
const secretReference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };

describe('the pages bucket', () => {
  it('blocks every kind of public access and encrypts at rest', () => {
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(at(bucket, 'BucketEncryption', 'ServerSideEncryptionConfiguration')).toEqual([
      { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
    ]);
    expect(bucket.WebsiteConfiguration).toBeUndefined();
  });

  it('lets only this distribution read it, and nobody use it without TLS', () => {
    const [, policy] = only('AWS::S3::BucketPolicy');
    expect(policy.Bucket).toEqual({ Ref: bucketId });
    const statements = at(policy, 'PolicyDocument', 'Statement') as Record<string, unknown>[];
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      ]),
    );
    const allowed = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allowed).toEqual([
      expect.objectContaining({
        Action: 's3:GetObject',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Condition: { StringEquals: { 'AWS:SourceArn': expect.objectContaining({ 'Fn::Join': expect.anything() }) } },
      }),
    ]);
    expect(JSON.stringify(allowed)).toContain(distributionId);
  });

  it('is reached through an origin access control that signs every request', () => {
    const [oacId, oac] = only('AWS::CloudFront::OriginAccessControl');
    expect(oac.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
    const s3Origin = originById(defaultBehaviour.TargetOriginId);
    expect(s3Origin).toMatchObject({ OriginAccessControlId: { 'Fn::GetAtt': [oacId, 'Id'] }, S3OriginConfig: { OriginAccessIdentity: '' } });
    expect(JSON.stringify(s3Origin?.DomainName)).toContain(bucketId);
  });

  it("receives the build folder, with the pages' cache-control, and invalidates the distribution", () => {
    const [, deployment] = only('Custom::CDKBucketDeployment');
    expect(deployment).toMatchObject({
      DestinationBucketName: { Ref: bucketId },
      DistributionId: { Ref: distributionId },
      DistributionPaths: ['/*'],
      SystemMetadata: { 'cache-control': PAGE_CACHE_CONTROL },
      Prune: true,
    });
  });
});

describe('the distribution', () => {
  it('serves the share page at / over HTTPS, with HTTP/2 and 3', () => {
    expect(config).toMatchObject({ Enabled: true, DefaultRootObject: PAGE_FILES.share, HttpVersion: 'http2and3' });
    expect(defaultBehaviour).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      CachePolicyId: MANAGED.cachingOptimized,
      Compress: true,
    });
  });

  it('sends /api/* to the REST API uncached, every method, every viewer header but Host', () => {
    expect(config.CacheBehaviors).toHaveLength(1);
    expect(apiBehaviour).toMatchObject({
      PathPattern: `${API_PATH_PREFIX}*`,
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: MANAGED.cachingDisabled,
      // Managed AllViewerExceptHostHeader: Authorization, and CloudFront's headers, CloudFront-Viewer-Address among them.
      OriginRequestPolicyId: MANAGED.allViewerExceptHostHeader,
    });
    expect(apiBehaviour.ResponseHeadersPolicyId).toBeUndefined();
  });

  it("reaches the API's /api/v1 resources through the stage: origin path /live, no reference to the stage", () => {
    const restApiId = resourcesOfType(template, 'AWS::ApiGateway::RestApi')[0]?.[0];
    const [stage] = resourcesOfType(template, 'AWS::ApiGateway::Stage');
    expect(API_BASE_PATH.startsWith(API_PATH_PREFIX)).toBe(true);
    expect(originById(apiBehaviour.TargetOriginId)).toMatchObject({
      DomainName: { 'Fn::Join': ['', [{ Ref: restApiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] },
      OriginPath: `/${String(at(stage?.[1].Properties, 'StageName'))}`,
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
    });
  });

  it('adds the deploy-time origin secret to API requests, and gives it to the functions that read the client address', () => {
    expect(originById(apiBehaviour.TargetOriginId)?.OriginCustomHeaders).toEqual([
      { HeaderName: EDGE_HEADERS.originSecret, HeaderValue: secretReference },
    ]);
    const [, secret] = only('AWS::SecretsManager::Secret');
    expect(secret.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    const readers = ROUTES.filter((route) => SETTINGS.originSecret.functions.some((name) => name === route.name));
    expect(readers.map((route) => route.name)).toEqual(['keys-create', 'secrets-create', 'requests-fulfil']);
    for (const route of readers) {
      expect(at(resource(template, routeFunctionId(template, route)).Properties, 'Environment', 'Variables', SETTINGS.originSecret.env)).toEqual(
        secretReference,
      );
    }
  });

  it("sends the pages' security headers, exactly those local mode sends", () => {
    const [policyId, policy] = only('AWS::CloudFront::ResponseHeadersPolicy');
    expect(defaultBehaviour.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    const settings = at(policy, 'ResponseHeadersPolicyConfig') as Record<string, unknown>;
    const security = settings.SecurityHeadersConfig as Record<string, Record<string, unknown>>;
    for (const value of Object.values(security)) expect(value.Override).toBe(true);
    const hsts = security.StrictTransportSecurity ?? {};
    const sent = {
      'content-security-policy': security.ContentSecurityPolicy?.ContentSecurityPolicy,
      'referrer-policy': security.ReferrerPolicy?.ReferrerPolicy,
      'x-content-type-options': security.ContentTypeOptions ? 'nosniff' : undefined,
      'x-frame-options': security.FrameOptions?.FrameOption,
      'strict-transport-security': `max-age=${String(hsts.AccessControlMaxAgeSec)}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}`,
      ...Object.fromEntries(
        (at(settings, 'CustomHeadersConfig', 'Items') as { Header: string; Value: string }[]).map((item) => [item.Header, item.Value]),
      ),
    };
    expect(sent).toEqual(PAGE_HEADERS);
    expect(sent['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(sent['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it("outputs SiteUrl, the distribution's https URL, which every route function has as SITE_URL", () => {
    const siteUrl = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] };
    expect(templateJson(template).Outputs?.SiteUrl?.Value).toEqual(siteUrl);
  });
});

describe('the reveal path function', () => {
  // The pages behaviour's function; the API behaviour's (the viewer IP, test/cdk/waf.test.ts) is another.
  const functionId = getAttTarget((defaultBehaviour.FunctionAssociations as Record<string, unknown>[] | undefined)?.[0]?.FunctionARN)?.[0];
  const cloudFrontFunction = resourcesOfType(template, 'AWS::CloudFront::Function').find(([id]) => id === functionId)?.[1].Properties ?? {};
  const code = String(cloudFrontFunction.FunctionCode);
  /** The function's code run as CloudFront runs it on a viewer request. */
  const rewrite = (uri: string): unknown => {
    const sandbox: Record<string, unknown> = { event: { request: { uri, method: 'GET', headers: {} } } };
    runInNewContext(`${code}\nresult = handler(event);`, sandbox);
    return isRecord(sandbox.result) ? sandbox.result.uri : undefined;
  };

  it('runs on viewer requests of the pages behaviour, on the JS 2.0 runtime', () => {
    expect(defaultBehaviour.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
    ]);
    expect(cloudFrontFunction).toMatchObject({ AutoPublish: true, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
  });

  it.each([
    ['/J8k051Rl3B2N5nxEX7V-gg', `/${PAGE_FILES.reveal}`],
    ['/', '/'],
    ['/share.js', '/share.js'],
    ['/J8k051Rl3B2N5nxEX7V-gg/x', '/J8k051Rl3B2N5nxEX7V-gg/x'],
    ['/J8k051Rl3B2N5nxEX7V-g', '/J8k051Rl3B2N5nxEX7V-g'],
    ['/J8k051Rl3B2N5nxEX7V-ggg', '/J8k051Rl3B2N5nxEX7V-ggg'],
  ])('%s → %s', (uri, expected) => {
    expect(rewrite(uri)).toBe(expected);
  });
});

describe('with a custom domain', () => {
  const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';
  const custom = synthesize({ domainName: 'secrets.example.com', certificateArn }).template;
  const [, customDistribution] = resourcesOfType(custom, 'AWS::CloudFront::Distribution')[0] ?? [];

  it('answers for the domain with its certificate, TLS 1.2 at least', () => {
    expect(customDistribution?.Properties?.DistributionConfig).toMatchObject({
      Aliases: ['secrets.example.com'],
      ViewerCertificate: { AcmCertificateArn: certificateArn, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
    });
  });

  it("makes https://<domain> every function's SITE_URL and the SiteUrl output", () => {
    expect(templateJson(custom).Outputs?.SiteUrl?.Value).toBe('https://secrets.example.com');
    for (const [, fn] of resourcesOfType(custom, 'AWS::Lambda::Function')) {
      const siteUrl = at(fn.Properties, 'Environment', 'Variables', SETTINGS.siteUrl.env);
      if (siteUrl !== undefined) expect(siteUrl).toBe('https://secrets.example.com');
    }
  });

  it.each([
    [{ domainName: 'secrets.example.com' }, /go together/],
    [{ certificateArn }, /go together/],
    [{ domainName: 'https://secrets.example.com', certificateArn }, /host name/],
    [{ domainName: 'secrets.example.com', certificateArn: certificateArn.replace('us-east-1', 'eu-west-1') }, /us-east-1/],
  ])('refuses %j', (context, message) => {
    expect(() => synthesize(context)).toThrow(message);
  });
});
