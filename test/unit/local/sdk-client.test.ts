import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SDK_LOGGER_MIDDLEWARE, withoutSdkLogging } from '#local/aws-account';

const middlewareNames = (client: { middlewareStack: { identify(): string[] } }): string[] =>
  client.middlewareStack.identify().map((entry) => entry.split(' - ')[0] ?? entry);

describe('withoutSdkLogging', () => {
  // If the SDK renamed its logger middleware, removing it by name would silently do nothing.
  test.each([
    ['DynamoDB', () => new DynamoDBClient({ region: 'us-east-1' })],
    ['SQS', () => new SQSClient({ region: 'us-east-1' })],
  ])('an SDK %s client has the logger middleware by default, and loses only it', (_, makeClient) => {
    const names = middlewareNames(makeClient());
    expect(names).toContain(SDK_LOGGER_MIDDLEWARE);

    const quiet = middlewareNames(withoutSdkLogging(makeClient()));
    expect(quiet).not.toContain(SDK_LOGGER_MIDDLEWARE);
    expect(quiet).toEqual(names.filter((name) => name !== SDK_LOGGER_MIDDLEWARE));
  });
});
