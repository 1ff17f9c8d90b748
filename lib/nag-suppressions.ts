import { Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';

/** The constructs that carry accepted findings. */
export interface AcceptedFindingScopes {
  readonly api: RestApi;
  /** The role that reads the secrets table's stream. */
  readonly streamReader: IConstruct;
  readonly fanOutFailures: IQueue;
  /** The secrets table, when its point-in-time recovery is off (the default). */
  readonly secretsWithoutRecovery?: IConstruct;
}

/**
 * cdk-nag (AwsSolutions) findings this service accepts, each acknowledged on the narrowest construct
 * that carries it, with the reason it does not apply. Everything else the pack checks is fixed.
 */
export function acknowledgeNagFindings({ api, streamReader, fanOutFailures, secretsWithoutRecovery }: AcceptedFindingScopes): void {
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
  acknowledge(api, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]', [
    'The account-level API Gateway logging role uses the managed policy AWS documents for it; it only',
    'allows writing CloudWatch Logs and only apigateway.amazonaws.com can assume the role.',
  ]);
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
}

function acknowledge(scope: IConstruct, finding: string, reason: readonly string[]): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions::AwsSolutions-${finding}`, reason: reason.join(' ') });
}
