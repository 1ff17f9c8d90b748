/** Local mode's one AWS account and what its clients share. No imports: the light cold-start runner uses it too. */

/** DynamoDB Local accepts any region and credentials, but the SDK insists on having some. */
export const LOCAL_AWS_SETTINGS = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
} as const;

/** Named in local mode's ARNs, queue URLs and request contexts. */
export const LOCAL_ACCOUNT_ID = '000000000000';

export const localQueueArn = (name: string): string => `arn:aws:sqs:${LOCAL_AWS_SETTINGS.region}:${LOCAL_ACCOUNT_ID}:${name}`;

/** With no logger, the SDK's logger middleware still masks every input and output (about 5% of a call's CPU): local clients drop it. */
export const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

export function withoutSdkLogging<TClient extends { middlewareStack: { remove(name: string): boolean } }>(client: TClient): TClient {
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  return client;
}
