import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { SDK_CALL_LOG_ENV } from '#local/sdk-calls';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { startLocalServer } from '../support/local-server';
import { TEST_ENV } from '../support/environment';

/**
 * One DynamoDB Local and one local-mode server for the whole run. The server is pointed at the
 * DynamoDB Local through DYNAMODB_ENDPOINT, so tests can also look at (and age) stored items.
 * Every local-mode process of the run (this one and those test files start, which inherit this
 * environment) records its functions' SDK calls in one directory, which global-teardown checks
 * against the stack's roles.
 */
export default async function globalSetup(): Promise<void> {
  process.env[SDK_CALL_LOG_ENV] = mkdtempSync(path.join(tmpdir(), 'sdk-calls-'));
  const dynamoDb = await startDynamoDbLocal('any', undefined);
  const siteUrl = 'https://secrets.example.test/s/';
  const tables = { [KEYS_TABLE.envVar]: 'it-keys', [SECRETS_TABLE.envVar]: 'it-secrets' };
  const server = await startLocalServer({ DYNAMODB_ENDPOINT: dynamoDb.endpoint, SITE_URL: siteUrl, ...tables });

  process.env[TEST_ENV.baseUrl] = server.baseUrl;
  process.env[TEST_ENV.siteUrl] = siteUrl;
  process.env[TEST_ENV.dynamodbEndpoint] = dynamoDb.endpoint;
  process.env[TEST_ENV.keysTable] = tables[KEYS_TABLE.envVar] ?? '';
  process.env[TEST_ENV.secretsTable] = tables[SECRETS_TABLE.envVar] ?? '';
  Object.assign(globalThis, { __localServer: server, __dynamoDb: dynamoDb });
}
