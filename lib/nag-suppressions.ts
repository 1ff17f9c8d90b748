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
  /** Consumed secrets to delete after a delay (lambdas/definitions/webhooks.ts). */
  readonly consumedSecrets: IQueue;
  /** The secrets table, when its point-in-time recovery is off (the default). */
  readonly secretsWithoutRecovery?: IConstruct;
  readonly site: SecretsSite;
  /** Whether the distribution has a domain and certificate of its own. */
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
      "MFA is optional by design (createAccess=signed-in): the team's administrator adds each person, who may",
      'set up TOTP; requiring it would block the first sign-in of people who were only sent a link to share.',
      'Teams that need it set it on the pool, or bring their own issuer with -c oidcIssuer.',
    ]);
    acknowledge(userPool, 'COG8', [
      'The Plus feature plan (threat protection) is billed per monthly active user on top of the pool: the',
      "Essentials plan's hosted sign-in, password policy and optional TOTP are what a team's sharing needs.",
    ]);
  }
  acknowledge(api, 'APIG4', [
    "Authentication is the API's own, as the spec defines it: a bearer API key that every handler",
    'checks against the keys table (POST /keys and GET /health are public by contract), in the same',
    "conditional update that counts the key's rate limit. An authorizer would add a second function call",
    'per request, or, with its result cached, keep a key revoked with DELETE /keys working for the cache TTL.',
  ]);
  acknowledge(api, 'COG4', [
    'Clients are programs holding API keys issued by POST /keys. With createAccess=signed-in, the Cognito',
    'token is checked once, by POST /keys, which mints a key: every other route authenticates by that key.',
  ]);
  acknowledge(api, 'APIG2', [
    "Requests are validated by the handlers, which must answer with the contract's messages naming the",
    'offending field, reject unknown fields and check Content-Type; a gateway model validator cannot',
    'express those rules and would answer some invalid requests differently from local mode.',
  ]);
  if (!webAcl) {
    acknowledge(api, 'APIG3', [
      "The operator deployed with context waf=false, turning off the stack's web ACL (about $9 a month",
      'before requests). Abuse is then bounded only by stage throttling, shared by every client, and by the',
      "handlers' per-key and per-address key creation limits; a web ACL of the operator's own can be",
      'associated with the stage.',
    ]);
  }
  if (accountCloudWatchRole) {
    acknowledge(api, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]', [
      'The account-level API Gateway logging role uses the managed policy AWS documents for it: CloudWatch',
      'Logs actions only (creating, describing, writing and reading log groups and streams), and only',
      'apigateway.amazonaws.com can assume the role.',
    ]);
  }
  acknowledge(streamReader, 'IAM5[Resource::*]', [
    "dynamodb:ListStreams, which Lambda needs to read a table's stream, has no resource-level permissions:",
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
  acknowledge(consumedSecrets, 'SQS3', [
    'A deletion that keeps failing comes back after each visibility timeout until the 14-day retention;',
    'no dead-letter queue would do more, as every secret also carries its DynamoDB TTL, which removes',
    'it at the latest when its ttl ends.',
  ]);
  acknowledge(fanOutFailures, 'SQS3', [
    "This queue is itself a dead-letter destination: the stream mapping's on-failure queue, holding the",
    'shard and sequence numbers of batches the fan-out gave up on. Nothing consumes it to fail again, and',
    'an alarm reports any message in it.',
  ]);
  acknowledgeSiteFindings(site, customDomain, webAcl);
}

/** The distribution, its bucket and origin secret, and aws-cdk-lib's deployment function. */
function acknowledgeSiteFindings(site: SecretsSite, customDomain: boolean, webAcl: boolean): void {
  const { distribution, bucket, originSecret, deployment } = site;
  acknowledge(distribution, 'CFR1', [
    'No geo restriction: the recipients of a secret may be anywhere, and the service has no country it must',
    'refuse. An operator who needs one can add it to the distribution.',
  ]);
  acknowledge(distribution, 'CFR2', [
    'The distribution has no web ACL of its own: the API behind /api/* has one on its stage (regional, so',
    "it also covers callers of the API's own URL), which rate-limits each viewer by the address the",
    "distribution passes on and applies AWS's managed rules. The pages are the same static files for",
    'everyone, served from the edge cache. A CloudFront web ACL would have to live in us-east-1, in a',
    'second stack, for a second monthly fee.',
    ...(webAcl ? [] : ["With context waf=false the API's web ACL is off too (APIG3), and only stage throttling bounds API requests."]),
  ]);
  acknowledge(distribution, 'CFR3', [
    "No CloudFront access logs: they record every request's path, and the path of a secret's link is its id, the",
    "capability to read it, which this service never logs. API requests are logged by API Gateway's access log,",
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
    'The bucket holds only the built pages, the same public files for everyone; its policy lets only the',
    'distribution read it (origin access control), and only the deployment function writes it. Its access logs',
    'would need a bucket of their own and would show nothing but CloudFront fetching those files.',
  ]);
  acknowledge(originSecret, 'SMG4', [
    'The origin secret only shows the API that a request came through this distribution, so that the viewer',
    "address it forwards is believed: by the per-address key creation limit and by the web ACL's per-address",
    'rate rule. Rotation would have to change CloudFront, the function and the web ACL at the same moment;',
    'replacing the secret resource and deploying renews all three.',
  ]);
  // aws-cdk-lib's BucketDeployment runs one singleton function per stack, which it configures itself.
  const deploymentFunction = deployment.handlerRole.node.scope;
  if (!deploymentFunction) throw new Error('the pages deployment has no function');
  const libraryManaged = [
    "aws-cdk-lib's BucketDeployment custom resource, which copies the built pages into the bucket and invalidates",
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
