/**
 * Defaults of the stack's own settings (CDK context), which no function reads; the settings the
 * functions read have theirs beside the limits they enforce (limits.ts, webhooks.ts, observability.ts).
 */

/** The CloudFormation stack's name, and so its REST API's; context `stackName` picks another. */
export const DEFAULT_STACK_NAME = 'OneTimeSecrets';

/**
 * Stage-wide gateway throttling. Sized for a self-hosted service: far above what one team's
 * clients send (each key is held to 100 requests a minute anyway), far below the account's
 * 10,000 rps regional quota, so that a flood is refused at the gateway before it costs Lambda
 * and DynamoDB money.
 */
export const DEFAULT_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;

/**
 * The cost alarm's default (lib/monitoring.ts): consumed write units of both tables in an hour.
 * 4 million units is about $2.50 an hour at on-demand prices (bench/prices.ts), a pace of about
 * $1,800 a month: what one address spending its whole default daily byte quota (4 GiB, about
 * 3.2 million units stored as binary, and again when deleted) within the hour writes, and
 * hundreds of times what a team sharing a few hundred secrets a day writes. bench/cost.ts reports
 * the dollars of this threshold from the same prices.
 */
export const DEFAULT_WRITE_UNITS_ALARM_PER_HOUR = 4_000_000;
