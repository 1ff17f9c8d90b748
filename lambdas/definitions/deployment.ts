/** Defaults of the stack's own settings (CDK context), which no function reads. */

/** The CloudFormation stack's name, and so its REST API's; context `stackName` picks another. */
export const DEFAULT_STACK_NAME = 'OneTimeSecrets';

/** Stage-wide gateway throttling: far above one team's use, so that a flood is refused before it costs money. */
export const DEFAULT_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;

/** The cost alarm's default: both tables' write units in an hour, one address's daily byte quota (bench/cost.ts). */
export const DEFAULT_WRITE_UNITS_ALARM_PER_HOUR = 4_000_000;
