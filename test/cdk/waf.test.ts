import { runInNewContext } from 'node:vm';
import type { Template } from 'aws-cdk-lib/assertions';
import { ERRORS } from '#contract/errors';
import { ADDRESS_RATE_LIMIT } from '#contract/limits';
import { API_PATH_PREFIX, EDGE_HEADERS } from '#contract/site';
import { COUNTED_MANAGED_RULES, WAF_RULES } from '#lib/waf';
import { sharedSynthesis, synthesize } from './support/synth';
import { at, getAttTarget, isRecord, referencedIds, resourcesOfType } from './support/template';

const { template } = sharedSynthesis();

const only = (from: Template, type: string): [string, Record<string, unknown>] => {
  const found = resourcesOfType(from, type);
  expect(found).toHaveLength(1);
  const [id, { Properties }] = found[0] ?? ['', {}];
  return [id, Properties ?? {}];
};

const [webAclId, webAcl] = only(template, 'AWS::WAFv2::WebACL');
const rules = webAcl.Rules as Record<string, unknown>[];
const rule = (name: string): Record<string, unknown> => {
  const found = rules.find((candidate) => candidate.Name === name);
  if (!found) throw new Error(`no rule ${name}`);
  return found;
};
const rateStatement = (name: string): Record<string, unknown> => at(rule(name), 'Statement', 'RateBasedStatement') as Record<string, unknown>;
const managedStatement = (name: string): Record<string, unknown> =>
  at(rule(name), 'Statement', 'ManagedRuleGroupStatement') as Record<string, unknown>;

const [secretId] = only(template, 'AWS::SecretsManager::Secret');
/** The exact origin secret header, as the distribution sends it. */
const carriesOriginSecret = {
  ByteMatchStatement: {
    FieldToMatch: { SingleHeader: { Name: EDGE_HEADERS.originSecret } },
    PositionalConstraint: 'EXACTLY',
    SearchString: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] },
    TextTransformations: [{ Priority: 0, Type: 'NONE' }],
  },
};

const [, distribution] = only(template, 'AWS::CloudFront::Distribution');
const apiBehaviour = (at(distribution, 'DistributionConfig', 'CacheBehaviors') as Record<string, unknown>[]).find(
  (behaviour) => behaviour.PathPattern === `${API_PATH_PREFIX}*`,
);

describe('the web ACL', () => {
  it("is regional and associated with the API's stage", () => {
    expect(webAcl).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const [, association] = only(template, 'AWS::WAFv2::WebACLAssociation');
    expect(getAttTarget(association.WebACLArn)).toEqual([webAclId, 'Arn']);
    const [restApiId] = only(template, 'AWS::ApiGateway::RestApi');
    const [stageId] = only(template, 'AWS::ApiGateway::Stage');
    expect(JSON.stringify(association.ResourceArn)).toMatch(/:apigateway:.*\/restapis\/.*\/stages\//);
    const resources = [...referencedIds(association.ResourceArn)].filter((id) => !id.startsWith('AWS::'));
    expect(resources.sort()).toEqual([restApiId, stageId].sort());
  });

  it("rate-limits first, then applies AWS's known-bad-inputs and core rule sets", () => {
    expect([...rules].sort((a, b) => Number(a.Priority) - Number(b.Priority)).map((found) => found.Name)).toEqual([
      WAF_RULES.ratePerViewer,
      WAF_RULES.ratePerSource,
      WAF_RULES.knownBadInputs,
      WAF_RULES.common,
    ]);
  });

  it('keeps no request: no sampled requests anywhere, no logging configuration, metrics only', () => {
    for (const config of [webAcl.VisibilityConfig, ...rules.map((found) => found.VisibilityConfig)]) {
      expect(config).toMatchObject({ SampledRequestsEnabled: false, CloudWatchMetricsEnabled: true });
    }
    expect(resourcesOfType(template, 'AWS::WAFv2::LoggingConfiguration')).toEqual([]);
  });

  it("has no rule that reads or keys on the request path or query, which hold a secret's id", () => {
    const own = JSON.stringify(rules.filter((found) => found.Statement && !at(found, 'Statement', 'ManagedRuleGroupStatement')));
    expect(own).not.toMatch(/UriPath|QueryString|QueryArgument|AllQueryArguments/);
  });
});

describe('the per-address rate rules', () => {
  it("key requests that carry the exact origin secret on the viewer's IP, as the distribution's function writes it", () => {
    expect(rateStatement(WAF_RULES.ratePerViewer)).toEqual({
      AggregateKeyType: 'FORWARDED_IP',
      ForwardedIPConfig: { HeaderName: EDGE_HEADERS.viewerIp, FallbackBehavior: 'MATCH' },
      Limit: ADDRESS_RATE_LIMIT.defaultPerWindow,
      EvaluationWindowSec: ADDRESS_RATE_LIMIT.windowSeconds,
      ScopeDownStatement: carriesOriginSecret,
    });
  });

  it("key every other request (a caller of the API's own URL) on its source address", () => {
    expect(rateStatement(WAF_RULES.ratePerSource)).toEqual({
      AggregateKeyType: 'IP',
      Limit: ADDRESS_RATE_LIMIT.defaultPerWindow,
      EvaluationWindowSec: ADDRESS_RATE_LIMIT.windowSeconds,
      ScopeDownStatement: { NotStatement: { Statement: carriesOriginSecret } },
    });
  });

  it.each([WAF_RULES.ratePerViewer, WAF_RULES.ratePerSource])("%s answers the contract's JSON 429 with a retry-after", (name) => {
    const response = at(rule(name), 'Action', 'Block', 'CustomResponse') as Record<string, unknown>;
    expect(response).toMatchObject({
      ResponseCode: 429,
      ResponseHeaders: expect.arrayContaining([
        { Name: 'retry-after', Value: String(ADDRESS_RATE_LIMIT.windowSeconds) },
        { Name: 'cache-control', Value: 'no-store' },
        { Name: 'x-content-type-options', Value: 'nosniff' },
      ]),
    });
    const body = at(webAcl, 'CustomResponseBodies', String(response.CustomResponseBodyKey)) as Record<string, unknown>;
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(String(body.Content))).toEqual({ error: ERRORS.addressRateLimited });
  });

  it("default to two keys' worth of the per-key limit in five minutes, within what WAF accepts", () => {
    expect(ADDRESS_RATE_LIMIT).toMatchObject({ windowSeconds: 300, defaultPerWindow: 1000 });
  });
});

describe('the managed rule groups', () => {
  it.each([WAF_RULES.knownBadInputs, WAF_RULES.common])("%s is AWS's, with its own block actions", (name) => {
    expect(managedStatement(name)).toMatchObject({ VendorName: 'AWS', Name: name });
    expect(rule(name).OverrideAction).toEqual({ None: {} });
  });

  it('only count the core rules that would refuse valid requests: bodies over 8 KB, no User-Agent, URLs and names in bodies', () => {
    const counted = (managedStatement(WAF_RULES.common).RuleActionOverrides as Record<string, unknown>[]).map((override) => {
      expect(override.ActionToUse).toEqual({ Count: {} });
      return override.Name;
    });
    expect(counted.sort()).toEqual(Object.keys(COUNTED_MANAGED_RULES.common).sort());
    expect(counted).toEqual(
      expect.arrayContaining([
        'SizeRestrictions_BODY',
        'NoUserAgent_HEADER',
        'GenericRFI_BODY',
        'GenericLFI_BODY',
        'CrossSiteScripting_BODY',
        'EC2MetaDataSSRF_BODY',
      ]),
    );
    expect(managedStatement(WAF_RULES.knownBadInputs).RuleActionOverrides).toBeUndefined();
  });

  it("block in the contract's shape: API Gateway answers WAF_FILTERED with a JSON 403", () => {
    const filtered = resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse').filter(
      ([, response]) => at(response.Properties, 'ResponseType') === 'WAF_FILTERED',
    );
    expect(filtered).toHaveLength(1);
    const properties = filtered[0]?.[1].Properties;
    expect(at(properties, 'StatusCode')).toBe('403');
    expect(at(properties, 'ResponseParameters', 'gatewayresponse.header.content-type')).toBe("'application/json'");
    expect(JSON.parse(String(at(properties, 'ResponseTemplates', 'application/json')))).toEqual({ error: ERRORS.requestBlocked });
  });
});

describe('the viewer IP function', () => {
  const association = (apiBehaviour?.FunctionAssociations as Record<string, unknown>[] | undefined) ?? [];
  const functionId = getAttTarget(association[0]?.FunctionARN)?.[0];
  const [, cloudFrontFunction] = resourcesOfType(template, 'AWS::CloudFront::Function').find(([id]) => id === functionId) ?? [];
  const code = String(cloudFrontFunction?.Properties?.FunctionCode);

  /** The function run as CloudFront runs it on a viewer request: the headers it passes on. */
  const headersAfter = (viewerIp: string, headers: Record<string, unknown>): unknown => {
    const sandbox: Record<string, unknown> = { event: { viewer: { ip: viewerIp }, request: { uri: '/api/v1/keys', method: 'POST', headers } } };
    runInNewContext(`${code}\nresult = handler(event);`, sandbox);
    return isRecord(sandbox.result) ? sandbox.result.headers : undefined;
  };

  it('runs on viewer requests of the API behaviour, on the JS 2.0 runtime', () => {
    expect(association).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } }]);
    expect(cloudFrontFunction?.Properties).toMatchObject({ AutoPublish: true, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
  });

  it.each(['198.51.100.10', '2001:db8::1'])("writes the viewer's IP %s alone, without a port", (ip) => {
    expect(headersAfter(ip, { host: { value: 'example.cloudfront.net' } })).toEqual({
      host: { value: 'example.cloudfront.net' },
      [EDGE_HEADERS.viewerIp]: { value: ip },
    });
  });

  it('replaces whatever the viewer sent under that name, every value of it', () => {
    const spoofed = { value: '203.0.113.1', multiValue: [{ value: '203.0.113.1' }, { value: '203.0.113.2' }] };
    expect(headersAfter('198.51.100.10', { [EDGE_HEADERS.viewerIp]: spoofed })).toEqual({ [EDGE_HEADERS.viewerIp]: { value: '198.51.100.10' } });
  });
});

describe('context', () => {
  const limitOf = (context: Record<string, unknown>): unknown[] => {
    const [, acl] = only(synthesize(context).template, 'AWS::WAFv2::WebACL');
    return (acl.Rules as Record<string, unknown>[])
      .map((found) => at(found, 'Statement', 'RateBasedStatement', 'Limit'))
      .filter((limit) => limit !== undefined);
  };

  it("wafRateLimit sets both rate rules' limit, as a number (cdk.json) or a string (-c)", () => {
    expect(limitOf({ wafRateLimit: 250 })).toEqual([250, 250]);
    expect(limitOf({ wafRateLimit: String(ADDRESS_RATE_LIMIT.minPerWindow) })).toEqual([10, 10]);
  });

  it.each([['9'], ['2.5'], ['many'], [ADDRESS_RATE_LIMIT.maxPerWindow + 1]])('refuses wafRateLimit=%j', (value) => {
    expect(() => synthesize({ wafRateLimit: value })).toThrow('wafRateLimit');
  });

  it.each([['maybe'], ['yes'], [2]])('refuses waf=%j', (value) => {
    expect(() => synthesize({ waf: value })).toThrow('waf');
  });

  it.each([[false], ['false']])('waf=%j leaves out the web ACL, its association and the viewer IP function', (waf) => {
    const off = synthesize({ waf }).template;
    expect(resourcesOfType(off, 'AWS::WAFv2::WebACL')).toEqual([]);
    expect(resourcesOfType(off, 'AWS::WAFv2::WebACLAssociation')).toEqual([]);
    const [, offDistribution] = only(off, 'AWS::CloudFront::Distribution');
    const offApiBehaviour = (at(offDistribution, 'DistributionConfig', 'CacheBehaviors') as Record<string, unknown>[])[0];
    expect(offApiBehaviour?.FunctionAssociations).toBeUndefined();
    expect(resourcesOfType(off, 'AWS::CloudFront::Function')).toHaveLength(1);
  });
});
