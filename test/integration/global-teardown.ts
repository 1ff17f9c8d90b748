import type { RunningDynamoDb } from '../../local/dynamodb-local';
import type { LocalServer } from '../support/local-server';

export default async function globalTeardown(): Promise<void> {
  const started = globalThis as unknown as { __localServer?: LocalServer; __dynamoDb?: RunningDynamoDb };
  await started.__localServer?.stop();
  await started.__dynamoDb?.stop();
}
