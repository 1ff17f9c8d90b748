/**
 * Names of the environment variables the functions read that are no setting of a deployment (those
 * are lambdas/config/settings.ts's rows): the stack and local mode set them.
 */
export const ENV = {
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  /**
   * The `service` of every log line and metric; the stack sets its own name, so that two stages
   * in one account count apart. Unset (local mode, tests): SERVICE_NAME.
   */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  /** Local mode only: the local queue service standing in for SQS. */
  sqsEndpoint: 'SQS_ENDPOINT',
} as const;
