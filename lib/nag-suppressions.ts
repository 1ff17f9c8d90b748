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
  readonly consumedSecrets: IQueue;
  /** The secrets table, when its point-in-time recovery is off (the default). */
  readonly secretsWithoutRecovery?: IConstruct;
  readonly site: SecretsSite;
  readonly customDomain: boolean;
  /** Whether the API's stage has the stack's web ACL (lib/waf.ts); context waf=false turns it off. */
  readonly webAcl: boolean;
  /** createAccess=signed-in without an issuer of the team's: the stack's Cognito user pool. */
  readonly userPool?: IConstruct;
}

/** cdk-nag findings this service accepts, each on the narrowest construct that carries it, with its reason. */
export function acknowledgeNagFindings({
  api,
  accountCloudWatchRole,
  streamReader,
  fanOutFailures,
  consumedSecrets,
  secretsWithoutRecovery,
  site,
  customDomain,
  webAcl,
  userPool,
}: AcceptedFindingScopes): void {
  if (userPool) {
    acknowledge(userPool, 'COG2', [
      'MFA is optional by design: people the administrator adds may set up TOTP; requiring it would block their first sign-in.',
    ]);
    acknowledge(userPool, 'COG8', [
      "The Plus plan (threat protection) is billed per active user; the Essentials plan covers what a team's sharing needs.",
    ]);
  }
  acknowledge(api, 'APIG4', [
    "Authentication is the API's own bearer key, checked in the conditional update that counts its rate limit;",
    'an authorizer would add a call per request, or with caching keep a revoked key working.',
  ]);
  acknowledge(api, 'COG4', ['Clients hold API keys from POST /keys; a signed-in Cognito token is checked once, by POST /keys, which mints a key.']);
  acknowledge(api, 'APIG2', [
    "The handlers validate requests with the contract's messages naming the field; a gateway model cannot express those rules.",
  ]);
  if (!webAcl) {
    acknowledge(api, 'APIG3', [
      "The operator deployed with context waf=false: abuse is then bounded by stage throttling and the handlers' per-key limits.",
    ]);
  }
  if (accountCloudWatchRole) {
    acknowledge(api, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]', [
      'The account-level API Gateway logging role uses the managed policy AWS documents for it: CloudWatch Logs actions only.',
    ]);
  }
  acknowledge(streamReader, 'IAM5[Resource::*]', [
    'dynamodb:ListStreams has no resource-level permissions and lists stream ARNs, never data; the stream is read by its own ARN.',
  ]);
  if (secretsWithoutRecovery) {
    acknowledge(secretsWithoutRecovery, 'DDB3', [
      'Point-in-time recovery would keep consumed secrets restorable for 35 days; secretsPointInTimeRecovery=true turns it on.',
    ]);
  }
  acknowledge(consumedSecrets, 'SQS3', [
    'A failing deletion comes back after each visibility timeout until retention ends; every secret also carries its TTL.',
  ]);
  acknowledge(fanOutFailures, 'SQS3', [
    "This queue is itself a dead-letter destination (the stream mapping's on-failure queue), and an alarm reports any message.",
  ]);
  acknowledgeSiteFindings(site, customDomain, webAcl);
}

/** The distribution, its bucket and origin secret, and aws-cdk-lib's deployment function. */
function acknowledgeSiteFindings(site: SecretsSite, customDomain: boolean, webAcl: boolean): void {
  const { distribution, bucket, originSecret, deployment } = site;
  acknowledge(distribution, 'CFR1', ["No geo restriction: a secret's recipients may be anywhere; an operator who needs one can add it."]);
  acknowledge(distribution, 'CFR2', [
    "No web ACL of the distribution's own: the API's regional one rate-limits each viewer; the pages are static files.",
    ...(webAcl ? [] : ["With context waf=false the API's web ACL is off too (APIG3), and only stage throttling bounds API requests."]),
  ]);
  acknowledge(distribution, 'CFR3', [
    "No CloudFront access logs: a link's path is its secret's id, which this service never logs; API Gateway logs by template.",
  ]);
  if (!customDomain) {
    acknowledge(distribution, 'CFR4', [
      'Without a custom domain the default *.cloudfront.net certificate fixes the TLS policy; with one, TLSv1.2_2021 is required.',
    ]);
  }
  acknowledge(bucket, 'S1', [
    'The bucket holds only the public built pages, read by the distribution alone; its access logs would show only CloudFront.',
  ]);
  acknowledge(originSecret, 'SMG4', [
    'The origin secret only vouches for the viewer address the distribution forwards; replacing the resource and deploying renews it',
    'in CloudFront, the function and the web ACL at once.',
  ]);
  // aws-cdk-lib's BucketDeployment runs one singleton function per stack, which it configures itself.
  const deploymentFunction = deployment.handlerRole.node.scope;
  if (!deploymentFunction) throw new Error('the pages deployment has no function');
  const libraryManaged = [
    "aws-cdk-lib's BucketDeployment, which copies the pages and invalidates the distribution at deploy time;",
    'the library sets its role and runtime and offers no setting to narrow them.',
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
