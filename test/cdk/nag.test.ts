import * as fs from 'node:fs';
import * as path from 'node:path';
import { VALIDATION_REPORT_FILE } from 'aws-cdk-lib/cx-api';
import { QUEUES } from '../../lambdas/definitions/webhooks';
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

/** What this stack knowingly accepts; lib/nag-suppressions.ts gives the reasons. */
const ACKNOWLEDGED_RULES = [
  'AwsSolutions-APIG2',
  'AwsSolutions-APIG3',
  'AwsSolutions-APIG4',
  'AwsSolutions-COG4',
  'AwsSolutions-DDB3',
  'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
  'AwsSolutions-IAM5[Resource::*]',
  'AwsSolutions-SQS3',
];

function awsSolutionsReport(): PluginReport {
  const assembly = synthesize().app.synth();
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

  it.each([
    ['AwsSolutions-IAM5[Resource::*]', /\/Webhooks\/FanOut\/Role\/DefaultPolicy\/Resource$/],
    ['AwsSolutions-SQS3', new RegExp(`/${QUEUES.fanOutFailures.id}/Resource$`)],
  ])('accepts %s only where the webhook pipeline needs it', (rule, path) => {
    const paths = report.suppressedViolations
      .filter((violation) => violation.ruleName === rule)
      .flatMap((violation) => violation.violatingConstructs.map((construct) => construct.constructPath));
    expect(paths).toEqual([expect.stringMatching(path)]);
  });
});
