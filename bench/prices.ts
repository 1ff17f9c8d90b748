/**
 * Published AWS prices: us-east-1, on-demand, first tier, no free tier. Each names the AWS page that
 * is the authority, and where and when its figures were read (AWS's pages render them client-side).
 */

export interface Rate {
  /** US dollars per `per`. */
  readonly usd: number;
  readonly per: string;
  /** The tier or condition the rate applies to. */
  readonly tier: string;
}

export interface PricedService {
  readonly service: string;
  readonly rates: Readonly<Record<string, Rate>>;
  /** The AWS page that is the authority for these rates. */
  readonly authority: string;
  /** Where the figures were actually read, and when: "2026-11-21" or "as published on <page> (<its date>)". */
  readonly checked: string;
}

const CHECKED_ON = '2026-11-21';

export const AWS_PRICES = {
  restApi: {
    service: 'API Gateway REST API',
    rates: { requests: { usd: 3.5, per: 'million requests', tier: 'first 333 million a month' } },
    authority: 'https://aws.amazon.com/api-gateway/pricing/',
    checked: `${CHECKED_ON}, in Table 4 of https://docs.aws.amazon.com/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html`,
  },
  lambdaArm64: {
    service: 'Lambda (arm64)',
    rates: {
      duration: { usd: 0.0000133334, per: 'GB-second', tier: 'first 7.5 billion GB-seconds a month' },
      requests: { usd: 0.2, per: 'million requests', tier: 'all' },
    },
    authority: 'https://aws.amazon.com/lambda/pricing/',
    checked:
      'as published on https://cloudchipr.com/blog/aws-lambda-pricing (2024) for duration, which is the 20% Arm discount on x86 $0.0000166667; ' +
      'in the worked example of https://aws.amazon.com/lambda/pricing/ (undated copy) for requests',
  },
  dynamoDbOnDemand: {
    service: 'DynamoDB on-demand',
    rates: {
      writeRequestUnits: { usd: 0.625, per: 'million write request units', tier: 'standard table class' },
      readRequestUnits: { usd: 0.125, per: 'million read request units', tier: 'standard table class' },
      storage: { usd: 0.25, per: 'GB-month', tier: 'beyond the first 25 GB' },
    },
    authority: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked:
      'as published on https://airbyte.com/data-engineering-resources/dynamodb-pricing (21 July 2025) for request units, ' +
      'on https://aws.amazon.com/dynamodb/pricing/ (undated copy) for storage',
  },
  dynamoDbStreams: {
    service: 'DynamoDB Streams',
    rates: { lambdaReads: { usd: 0, per: 'GetRecords call', tier: 'made by a Lambda trigger' } },
    authority: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked: `${CHECKED_ON}, at https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CostOptimization_StreamsUsage.html`,
  },
  sqsStandard: {
    service: 'SQS standard queue',
    rates: {
      requests: { usd: 0.4, per: 'million requests', tier: 'first 100 billion a month' },
    },
    authority: 'https://aws.amazon.com/sqs/pricing/',
    checked: 'as published on https://cloudburn.io/blog/amazon-sqs-pricing (14 March 2026)',
  },
  dataTransferOut: {
    service: 'Data transfer out to the internet',
    rates: { internet: { usd: 0.09, per: 'GB', tier: 'first 10 TB a month' } },
    authority: 'https://aws.amazon.com/ec2/pricing/on-demand/#Data_Transfer',
    checked: 'as published on https://wring.co/blog/aws-data-transfer-pricing-guide (2026)',
  },
} as const satisfies Record<string, PricedService>;
