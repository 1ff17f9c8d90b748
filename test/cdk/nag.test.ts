import * as fs from 'node:fs';
import * as path from 'node:path';
import { VALIDATION_REPORT_FILE } from 'aws-cdk-lib/cx-api';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { synthesize } from './support/synth';

interface PluginReport {
  readonly pluginName: string;
  readonly conclusion: string;
  readonly violations: readonly { readonly ruleName: string }[];
  readonly suppressedViolations: readonly {
    readonly ruleName: string;
    readonly reason: string;
    readonly violatingConstructs: readonly { readonly constructPath: string }[];
  }[];
}

/** Only with context apiGatewayCloudWatchRole=true, which creates the account's API Gateway logging role. */
const CLOUDWATCH_ROLE_RULE = 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]';

/** What this stack knowingly accepts with its defaults; lib/nag-suppressions.ts gives the reasons. */
const ACKNOWLEDGED_RULES = [
  'AwsSolutions-APIG2',
  'AwsSolutions-APIG4',
  'AwsSolutions-CFR1',
  'AwsSolutions-CFR2',
  'AwsSolutions-CFR3',
  'AwsSolutions-CFR4',
  'AwsSolutions-COG4',
  'AwsSolutions-DDB3',
  'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
  'AwsSolutions-IAM5[Action::s3:Abort*]',
  'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
  'AwsSolutions-IAM5[Action::s3:GetBucket*]',
  'AwsSolutions-IAM5[Action::s3:GetObject*]',
  'AwsSolutions-IAM5[Action::s3:List*]',
  'AwsSolutions-IAM5[Resource::*]',
  'AwsSolutions-IAM5[Resource::<SitePages600CC8A7.Arn>/*]',
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
  'AwsSolutions-L1',
  'AwsSolutions-S1',
  'AwsSolutions-SMG4',
  'AwsSolutions-SQS3',
];

/** aws-cdk-lib's singleton function behind BucketDeployment, configured by the library. */
const BUCKET_DEPLOYMENT = /\/Custom::CDKBucketDeployment[0-9A-F]+\w*\//;

function awsSolutionsReport(context: Record<string, unknown> = {}): PluginReport {
  const assembly = synthesize(context).app.synth();
  const report: unknown = JSON.parse(fs.readFileSync(path.join(assembly.directory, VALIDATION_REPORT_FILE), 'utf8'));
  const plugins = (report as { pluginReports: PluginReport[] }).pluginReports;
  const awsSolutions = plugins.find((plugin) => plugin.pluginName === 'AwsSolutions');
  if (!awsSolutions) throw new Error('cdk-nag AwsSolutions did not run');
  return awsSolutions;
}

describe('cdk-nag AwsSolutions', () => {
  const report = awsSolutionsReport();

  it('finds nothing unacknowledged, errors or warnings', () => {
    expect(report.violations).toEqual([]);
    expect(report.conclusion).toBe('success');
  });

  it('acknowledges only the expected rules, each with a reason', () => {
    expect([...new Set(report.suppressedViolations.map((violation) => violation.ruleName))].sort()).toEqual(ACKNOWLEDGED_RULES);
    for (const violation of report.suppressedViolations) expect(violation.reason.length).toBeGreaterThan(40);
  });

  it('passes APIG3 without acknowledging it: the stage has the web ACL', () => {
    expect(report.suppressedViolations.map((violation) => violation.ruleName)).not.toContain('AwsSolutions-APIG3');
    expect(report.violations.map((violation) => violation.ruleName)).not.toContain('AwsSolutions-APIG3');
  });

  const pathsOf = (rule: string): string[] =>
    report.suppressedViolations
      .filter((violation) => violation.ruleName === rule)
      .flatMap((violation) => violation.violatingConstructs.map((construct) => construct.constructPath));

  it.each([['AwsSolutions-IAM5[Resource::*]', /\/Webhooks\/FanOut\/Role\/DefaultPolicy\/Resource$/]])(
    'accepts %s only where the webhook pipeline needs it',
    (rule, path) => {
      expect(pathsOf(rule).filter((found) => !BUCKET_DEPLOYMENT.test(found))).toEqual([expect.stringMatching(path)]);
    },
  );

  it('accepts AwsSolutions-SQS3 only on the fan-out’s on-failure queue and the consumed-secrets queue', () => {
    expect(pathsOf('AwsSolutions-SQS3').sort()).toEqual([
      expect.stringMatching(new RegExp(`/${QUEUES.consumedSecrets.id}/Resource$`)),
      expect.stringMatching(new RegExp(`/${QUEUES.fanOutFailures.id}/Resource$`)),
    ]);
  });

  it("accepts the IAM and runtime findings of the page deployment only on aws-cdk-lib's deployment function", () => {
    const libraryRules = ACKNOWLEDGED_RULES.filter((rule) => /-(IAM5\[Action|IAM4\[Policy::.*AWSLambdaBasic|L1$)/.test(rule));
    for (const rule of libraryRules) expect(pathsOf(rule)).toEqual([expect.stringMatching(BUCKET_DEPLOYMENT)]);
  });

  it('accepts the CloudFront findings on the distribution alone, and CFR4 only without a custom domain', () => {
    for (const rule of ['AwsSolutions-CFR1', 'AwsSolutions-CFR2', 'AwsSolutions-CFR3', 'AwsSolutions-CFR4']) {
      expect(pathsOf(rule)).toEqual([expect.stringMatching(/\/Site\/Distribution\/Resource$/)]);
    }
  });
});

describe('cdk-nag AwsSolutions with a custom domain', () => {
  const report = awsSolutionsReport({
    domainName: 'secrets.example.com',
    certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d',
  });

  it('needs no CFR4 acknowledgement: the distribution requires TLS 1.2', () => {
    expect(report.violations).toEqual([]);
    expect(report.suppressedViolations.map((violation) => violation.ruleName)).not.toContain('AwsSolutions-CFR4');
  });
});

describe('cdk-nag AwsSolutions with the web ACL off (waf=false)', () => {
  const report = awsSolutionsReport({ waf: false });
  const reasonsFor = (rule: string): string[] =>
    report.suppressedViolations.filter((violation) => violation.ruleName === rule).map((violation) => violation.reason);

  it("acknowledges APIG3 on the API's stage alone, saying the operator turned the web ACL off", () => {
    expect(report.violations).toEqual([]);
    const [reason, ...others] = reasonsFor('AwsSolutions-APIG3');
    expect(others).toEqual([]);
    expect(reason).toMatch(/waf=false/);
  });

  it('says in CFR2 that only stage throttling then bounds API requests', () => {
    expect(reasonsFor('AwsSolutions-CFR2')).toEqual([expect.stringMatching(/waf=false.*stage throttling/)]);
  });
});

describe("cdk-nag AwsSolutions with the account's API Gateway logging role", () => {
  const report = awsSolutionsReport({ apiGatewayCloudWatchRole: 'true' });

  it("acknowledges the role's AWS managed policy, on the REST API's role alone", () => {
    expect(report.violations).toEqual([]);
    const paths = report.suppressedViolations
      .filter((violation) => violation.ruleName === CLOUDWATCH_ROLE_RULE)
      .flatMap((violation) => violation.violatingConstructs.map((construct) => construct.constructPath));
    expect(paths).toEqual([expect.stringMatching(/\/Api\/RestApi\/CloudWatchRole\/Resource$/)]);
  });
});

describe('cdk-nag AwsSolutions with createAccess=signed-in', () => {
  it("with the stack's user pool: only COG2 and COG8 more, on the pool alone", () => {
    const report = awsSolutionsReport({ createAccess: 'signed-in' });
    expect(report.violations).toEqual([]);
    const added = report.suppressedViolations.filter((violation) => !ACKNOWLEDGED_RULES.includes(violation.ruleName));
    expect(added.map((violation) => violation.ruleName).sort()).toEqual(['AwsSolutions-COG2', 'AwsSolutions-COG8']);
    for (const violation of added) {
      expect(violation.violatingConstructs.map((construct) => construct.constructPath)).toEqual([
        expect.stringMatching(/\/SignIn\/Users\/Resource$/),
      ]);
    }
  });

  it("with the team's own issuer: nothing more than open", () => {
    const report = awsSolutionsReport({
      createAccess: 'signed-in',
      oidcIssuer: 'https://login.example.com',
      oidcAudience: 'onetime',
      oidcClientId: 'onetime-pages',
      oidcAllowedDomains: 'example.com',
    });
    expect(report.violations).toEqual([]);
    expect([...new Set(report.suppressedViolations.map((violation) => violation.ruleName))].sort()).toEqual(ACKNOWLEDGED_RULES);
  });
});
