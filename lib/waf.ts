import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ERRORS } from '#contract/errors';
import { ADDRESS_RATE_LIMIT } from '#contract/limits';
import { EDGE_HEADERS } from '#contract/site';

/** The API's web ACL: a per-address rate limit, then AWS's managed rule sets (docs/decisions/waf.md); it logs no path. */

/** Rule names, which are also their CloudWatch metric names. */
export const WAF_RULES = {
  ratePerViewer: 'RatePerViewerAddress',
  ratePerSource: 'RatePerSourceAddress',
  knownBadInputs: 'AWSManagedRulesKnownBadInputsRuleSet',
  common: 'AWSManagedRulesCommonRuleSet',
} as const;

/** Managed rules that would refuse bodies the contract accepts (opaque JSON strings): they only count. */
export const COUNTED_MANAGED_RULES: Readonly<Record<'knownBadInputs' | 'common', Readonly<Record<string, string>>>> = {
  knownBadInputs: {},
  common: {
    SizeRestrictions_BODY: 'refuses every body over 8 KB, so every secret above about 6 KB; the API takes 5 MiB',
    NoUserAgent_HEADER: 'API clients need not send a User-Agent, and some HTTP libraries send none',
    GenericRFI_BODY: 'matches URLs with an IPv4 host, which a webhook URL may have',
    GenericLFI_BODY: 'matches ../, which a filename may hold (client-side ciphertext, or any name without control characters)',
    CrossSiteScripting_BODY: 'matches markup in a filename or mimetype, opaque strings the pages only ever write as text',
    EC2MetaDataSSRF_BODY:
      "a webhook at the metadata address must get the contract's 400 naming the field, not a 403; deliveries refuse non-public addresses anyway",
  },
};

const RATE_LIMITED_BODY = 'RateLimited';

/** What the rate rules answer: the contract's 429, told to come back when the window has passed. */
const rateLimitedResponse: CfnWebACL.RuleActionProperty = {
  block: {
    customResponse: {
      responseCode: 429,
      customResponseBodyKey: RATE_LIMITED_BODY,
      // WAF sets content-type from the body; these are the rest of every API response's headers.
      responseHeaders: [
        { name: 'retry-after', value: String(ADDRESS_RATE_LIMIT.windowSeconds) },
        { name: 'cache-control', value: 'no-store' },
        { name: 'x-content-type-options', value: 'nosniff' },
      ],
    },
  },
};

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  // A sampled request shows its URI (a secret's id) and its headers (the origin secret, API keys).
  sampledRequestsEnabled: false,
});

export interface ApiFirewallProps {
  readonly stage: Stage;
  /** The distribution's origin secret: only requests carrying it are keyed on the viewer's address. */
  readonly originSecret: ISecret;
  /** Requests per address in WAF's evaluation window (ADDRESS_RATE_LIMIT.windowSeconds). */
  readonly requestsPerAddress: number;
}

export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, { stage, originSecret, requestsPerAddress }: ApiFirewallProps) {
    super(scope, id);
    const name = `${Stack.of(this).stackName}-api`;

    // The exact header the distribution adds (a deploy-time reference: the template holds none of it).
    const cameThroughDistribution: CfnWebACL.StatementProperty = {
      byteMatchStatement: {
        fieldToMatch: { singleHeader: { Name: EDGE_HEADERS.originSecret } },
        positionalConstraint: 'EXACTLY',
        searchString: originSecret.secretValue.unsafeUnwrap(),
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    };

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name,
      description: 'One-time secrets API: per-address rate limit, AWS managed known-bad-inputs and core rule sets',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(name),
      customResponseBodies: {
        [RATE_LIMITED_BODY]: { contentType: 'APPLICATION_JSON', content: JSON.stringify({ error: ERRORS.addressRateLimited }) },
      },
      rules: [
        // Through CloudFront the source is an edge server: key on the viewer IP our function writes.
        {
          name: WAF_RULES.ratePerViewer,
          priority: 0,
          action: rateLimitedResponse,
          visibilityConfig: visibility(WAF_RULES.ratePerViewer),
          statement: {
            rateBasedStatement: {
              limit: requestsPerAddress,
              evaluationWindowSec: ADDRESS_RATE_LIMIT.windowSeconds,
              aggregateKeyType: 'FORWARDED_IP',
              // The function always writes a valid address; anything else is counted as one client.
              forwardedIpConfig: { headerName: EDGE_HEADERS.viewerIp, fallbackBehavior: 'MATCH' },
              scopeDownStatement: cameThroughDistribution,
            },
          },
        },
        // Everything else called the API's own URL: its source address is the client's.
        {
          name: WAF_RULES.ratePerSource,
          priority: 1,
          action: rateLimitedResponse,
          visibilityConfig: visibility(WAF_RULES.ratePerSource),
          statement: {
            rateBasedStatement: {
              limit: requestsPerAddress,
              evaluationWindowSec: ADDRESS_RATE_LIMIT.windowSeconds,
              aggregateKeyType: 'IP',
              scopeDownStatement: { notStatement: { statement: cameThroughDistribution } },
            },
          },
        },
        // Blocked requests get API Gateway's WAF_FILTERED response (lib/gateway-responses.ts).
        managedRuleGroup(WAF_RULES.knownBadInputs, 2, COUNTED_MANAGED_RULES.knownBadInputs),
        managedRuleGroup(WAF_RULES.common, 3, COUNTED_MANAGED_RULES.common),
      ],
    });

    new CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}

function managedRuleGroup(name: string, priority: number, counted: Readonly<Record<string, string>>): CfnWebACL.RuleProperty {
  const ruleActionOverrides = Object.keys(counted).map((rule) => ({ name: rule, actionToUse: { count: {} } }));
  return {
    name,
    priority,
    overrideAction: { none: {} },
    visibilityConfig: visibility(name),
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name,
        ...(ruleActionOverrides.length > 0 ? { ruleActionOverrides } : {}),
      },
    },
  };
}
