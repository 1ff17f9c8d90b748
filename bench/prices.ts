/**
 * Published AWS prices the cost estimate uses: us-east-1, on-demand, first tier, free tiers left
 * out (they end, and they are shared with whatever else runs in the account). Each entry names the
 * page its figures were read from and when. AWS's own pricing pages render their rates client-side,
 * so where the stored copy of a page showed no figures, the figures are "as published on" the page
 * that did show them, and the AWS page is named as the authority to re-check.
 */

export interface Rate {
  /** US dollars per `per`. */
  readonly usd: number;
  readonly per: string;
  /** The tier or condition the rate applies to. */
  readonly tier: string;
  /** Bytes of payload one billed unit covers, where the service bills large payloads as several units. */
  readonly meteredInBytes?: number;
}

export interface PricedService {
  readonly service: string;
  readonly rates: Readonly<Record<string, Rate>>;
  /** The AWS page that is the authority for these rates. */
  readonly authority: string;
  /** Where the figures were actually read, and when: "2026-11-21" or "as published on <page> (<its date>)". */
  readonly checked: string;
  readonly note?: string;
}

const CHECKED_ON = '2026-11-21';

export const AWS_PRICES = {
  restApi: {
    service: 'API Gateway REST API',
    rates: { requests: { usd: 3.5, per: 'million requests', tier: 'first 333 million a month' } },
    authority: 'https://aws.amazon.com/api-gateway/pricing/',
    checked: `${CHECKED_ON}, in Table 4 of https://docs.aws.amazon.com/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html`,
  },
  httpApi: {
    service: 'API Gateway HTTP API',
    rates: {
      requests: { usd: 1.0, per: 'million requests', tier: 'first 300 million a month', meteredInBytes: 512 * 1024 },
    },
    authority: 'https://aws.amazon.com/api-gateway/pricing/',
    checked: `${CHECKED_ON}, in Table 4 of https://docs.aws.amazon.com/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html`,
    note: '"HTTP APIs are metered in 512 KB increments": a 513 KB request is billed as two.',
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
    note: 'Billed duration is rounded up to the millisecond. Since 1 August 2025 the INIT phase of cold starts is billed too (https://aws.amazon.com/blogs/compute/aws-lambda-standardizes-billing-for-init-phase/).',
  },
  dynamoDbOnDemand: {
    service: 'DynamoDB on-demand',
    rates: {
      writeRequestUnits: { usd: 0.625, per: 'million write request units', tier: 'standard table class', meteredInBytes: 1024 },
      readRequestUnits: { usd: 0.125, per: 'million read request units', tier: 'standard table class', meteredInBytes: 4096 },
      storage: { usd: 0.25, per: 'GB-month', tier: 'beyond the first 25 GB' },
    },
    authority: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked:
      'as published on https://airbyte.com/data-engineering-resources/dynamodb-pricing (21 July 2025) for request units, ' +
      'on https://aws.amazon.com/dynamodb/pricing/ (undated copy) for storage',
    note: 'Request units after the 1 November 2024 cut of 50% (was $1.25 and $0.25). A strongly consistent read takes one unit per 4 KB, a write or delete one per 1 KB of the item.',
  },
  dynamoDbProvisioned: {
    service: 'DynamoDB provisioned capacity',
    rates: {
      writeCapacityUnitHours: { usd: 0.00065, per: 'WCU-hour', tier: 'standard table class' },
      readCapacityUnitHours: { usd: 0.00013, per: 'RCU-hour', tier: 'standard table class' },
    },
    authority: 'https://aws.amazon.com/dynamodb/pricing/provisioned/',
    checked:
      'as published on https://zeonedge.com/en/blog/dynamodb-cost-optimization-on-demand-provisioned-dax-single-table (undated); ' +
      'https://aws.amazon.com/dynamodb/pricing/ (undated copy) gives the same as $0.47 per WCU-month and $0.09 per RCU-month',
    note: "Only for Yopass's table, which its stack provisions at 10 WCU and 10 RCU.",
  },
  dynamoDbStreams: {
    service: 'DynamoDB Streams',
    rates: { lambdaReads: { usd: 0, per: 'GetRecords call', tier: 'made by a Lambda trigger' } },
    authority: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked: `${CHECKED_ON}, at https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CostOptimization_StreamsUsage.html`,
    note: 'Reads by other consumers cost $0.02 per 100,000 after 2.5 million free a month.',
  },
  sqsStandard: {
    service: 'SQS standard queue',
    rates: {
      requests: { usd: 0.4, per: 'million requests', tier: 'first 100 billion a month', meteredInBytes: 64 * 1024 },
    },
    authority: 'https://aws.amazon.com/sqs/pricing/',
    checked: 'as published on https://cloudburn.io/blog/amazon-sqs-pricing (14 March 2026)',
    note: 'Every API action is a request, empty receives included; each 64 KB chunk of a payload is billed as one request.',
  },
  dataTransferOut: {
    service: 'Data transfer out to the internet',
    rates: { internet: { usd: 0.09, per: 'GB', tier: 'first 10 TB a month' } },
    authority: 'https://aws.amazon.com/ec2/pricing/on-demand/#Data_Transfer',
    checked: 'as published on https://wring.co/blog/aws-data-transfer-pricing-guide (2026)',
    note: 'API Gateway bills its responses at this rate. The first 100 GB a month, across services, are free.',
  },
} as const satisfies Record<string, PricedService>;
