import { type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import type { SecretsSite } from './site';

/** The constructs that carry accepted findings. */
export interface AcceptedFindingScopes {
  readonly api: RestApi;
  /** Whether the stack creates API Gateway's account-level CloudWatch role (context apiGatewayCloudWatchRole). */
  readonly accountCloudWatchRole: boolean;
  /** The role that reads the secrets table's stream. */
  readonly streamReader: IConstruct;
  readonly fanOutFailures: IQueue;
  /** The secrets table, when its point-in-time recovery is off (the default). */
  readonly secretsWithoutRecovery?: IConstruct;
  readonly site: SecretsSite;
  /** Whether the distribution has a domain and certificate of its own. */
  readonly customDomain: boolean;
}

/**
 * cdk-nag (AwsSolutions) findings this service accepts, each acknowledged on the narrowest construct
 * that carries it, with the reason it does not apply. Everything else the pack checks is fixed.
 */
export function acknowledgeNagFindings({
  api,
  accountCloudWatchRole,
  streamReader,
  fanOutFailures,
  secretsWithoutRecovery,
  site,
  customDomain,
}: AcceptedFindingScopes): void {
  acknowledge(api, 'APIG4', [
    'Authentication is the API\'s own, as the spec defines it: a bearer API key that every handler',
    'checks against the keys table (POST /keys and GET /health are public by contract). An authorizer',
    'would cache its decision, so a key revoked with DELETE /keys would keep working for the cache TTL.',
  ]);
  acknowledge(api, 'COG4', [
    'There are no Cognito users: clients are programs holding API keys issued by POST /keys.',
  ]);
  acknowledge(api, 'APIG2', [
    'Requests are validated by the handlers, which must answer with the contract\'s messages naming the',
    'offending field, reject unknown fields and check Content-Type; a gateway model validator cannot',
    'express those rules and would answer some invalid requests differently from local mode.',
  ]);
  acknowledge(api, 'APIG3', [
    'No WAF web ACL by default: its fixed monthly cost does not suit a small self-hosted deployment.',
    'Abuse is bounded by stage throttling and by the per-key and per-IP limits in the handlers;',
    'an operator can associate a web ACL with the stage without changing this stack.',
  ]);
  if (accountCloudWatchRole) {
    acknowledge(api, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]', [
      'The account-level API Gateway logging role uses the managed policy AWS documents for it; it only',
      'allows writing CloudWatch Logs and only apigateway.amazonaws.com can assume the role.',
    ]);
  }
  acknowledge(streamReader, 'IAM5[Resource::*]', [
    'dynamodb:ListStreams, which Lambda needs to read a table\'s stream, has no resource-level permissions:',
    'IAM matches it only against *. It lists stream ARNs, never data; the stream itself is read only through',
    'the statement on its own ARN.',
  ]);
  if (secretsWithoutRecovery) {
    acknowledge(secretsWithoutRecovery, 'DDB3', [
      'Point-in-time recovery would keep every consumed and revoked secret restorable for 35 days, which',
      'a one-time secret rules out; the context value secretsPointInTimeRecovery=true turns it on. The keys',
      'table keeps it.',
    ]);
  }
  acknowledge(fanOutFailures, 'SQS3', [
    'This queue is itself a dead-letter destination: the stream mapping\'s on-failure queue, holding the',
    'shard and sequence numbers of batches the fan-out gave up on. Nothing consumes it to fail again, and',
    'an alarm reports any message in it.',
  ]);
  acknowledgeSiteFindings(site, customDomain);
}

/** The distribution, its bucket and origin secret, and aws-cdk-lib's deployment function. */
function acknowledgeSiteFindings(site: SecretsSite, customDomain: boolean): void {
  const { distribution, bucket, originSecret, deployment } = site;
  acknowledge(distribution, 'CFR1', [
    'No geo restriction: the recipients of a secret may be anywhere, and the service has no country it must',
    'refuse. An operator who needs one can add it to the distribution.',
  ]);
  acknowledge(distribution, 'CFR2', [
    'No WAF web ACL by default, as for the API (APIG3): its fixed monthly cost does not suit a small self-hosted',
    'deployment. The pages are static files; API requests are bounded by stage throttling and the per-key and',
    'per-address limits in the handlers.',
  ]);
  acknowledge(distribution, 'CFR3', [
    'No CloudFront access logs: they record every request\'s path, and the path of a secret\'s link is its id, the',
    'capability to read it, which this service never logs. API requests are logged by API Gateway\'s access log,',
    'by route template.',
  ]);
  if (!customDomain) {
    acknowledge(distribution, 'CFR4', [
      'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose viewer TLS',
      'policy CloudFront fixes and no setting can raise; with context domainName and certificateArn the',
      'distribution requires TLSv1.2_2021.',
    ]);
  }
  acknowledge(bucket, 'S1', [
    'The bucket holds only the built pages, the same public files for everyone, and only the distribution can',
    'read it (origin access control). Its access logs would need a bucket of their own and would show nothing',
    'but CloudFront fetching those files.',
  ]);
  acknowledge(originSecret, 'SMG4', [
    'The origin secret only shows the API that a request came through this distribution, for the per-address',
    'key creation limit. Rotation would have to change CloudFront and the function at the same moment; replacing',
    'the secret resource and deploying renews both.',
  ]);
  // aws-cdk-lib's BucketDeployment runs one singleton function per stack, which it configures itself.
  const deploymentFunction = deployment.handlerRole.node.scope;
  if (!deploymentFunction) throw new Error('the pages deployment has no function');
  const libraryManaged = [
    'aws-cdk-lib\'s BucketDeployment custom resource, which copies the built pages into the bucket and invalidates',
    'the distribution at deploy time only; the library sets its role (logs, read of the CDK asset bucket, write and',
    'delete in the pages bucket, CloudFront invalidation) and its runtime, and offers no setting to narrow them.',
  ];
  for (const finding of [
    'L1',
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'IAM5[Action::s3:Abort*]',
    'IAM5[Action::s3:DeleteObject*]',
    'IAM5[Action::s3:GetBucket*]',
    'IAM5[Action::s3:GetObject*]',
    'IAM5[Action::s3:List*]',
    'IAM5[Resource::*]',
    'IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
    `IAM5[Resource::<${Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>/*]`,
  ]) {
    acknowledge(deploymentFunction, finding, libraryManaged);
  }
}

function acknowledge(scope: IConstruct, finding: string, reason: readonly string[]): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions::AwsSolutions-${finding}`, reason: reason.join(' ') });
}
