/**
 * The AWS SDK's logger middleware runs on every call. The client's default logger writes nothing,
 * but the middleware still walks the call's whole input and output through the schema to mask
 * sensitive members for that log (a copy of every item read or written, a stream batch's every
 * image), and then discards it: about 5% of a DynamoDB call's CPU. No client of ours has an SDK
 * logger, so every client local mode makes drops the middleware when it is made.
 */
export const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

interface SdkClient {
  middlewareStack: { remove(name: string): boolean };
}

export function withoutSdkLogging<TClient extends SdkClient>(client: TClient): TClient {
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  return client;
}
