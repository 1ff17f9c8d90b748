/**
 * Local mode's one AWS account and what its clients share. No imports: processes that must stay
 * light (the cold-start runner) can name the same account.
 */

/** DynamoDB Local accepts any region and credentials, but the SDK insists on having some. */
export const LOCAL_AWS_SETTINGS = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
} as const;

/** Named in local mode's ARNs, queue URLs and request contexts. */
export const LOCAL_ACCOUNT_ID = '000000000000';

export const localQueueArn = (name: string): string => `arn:aws:sqs:${LOCAL_AWS_SETTINGS.region}:${LOCAL_ACCOUNT_ID}:${name}`;

/**
 * The AWS SDK's logger middleware runs on every call: with no logger it still walks each input and
 * output through the schema to mask sensitive members, then discards it (about 5% of a DynamoDB
 * call's CPU). No client of ours has an SDK logger, so every client local mode makes drops it.
 */
export const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

export function withoutSdkLogging<TClient extends { middlewareStack: { remove(name: string): boolean } }>(client: TClient): TClient {
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  return client;
}
