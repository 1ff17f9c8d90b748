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
