/** Names of the environment variables the functions read; the stack and local mode set them. */
export const ENV = {
  siteUrl: 'SITE_URL',
  keysPerIpPerHour: 'KEYS_PER_IP_PER_HOUR',
  webhookAllowLoopback: 'WEBHOOK_ALLOW_LOOPBACK',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
} as const;
