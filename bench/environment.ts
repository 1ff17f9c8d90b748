import { ENV } from '#lambdas/definitions/env';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { ensureTables } from '#local/create-tables';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { localTableName } from '#local/local-tables';
import { startBenchServices, type BenchServices } from './services';

/**
 * What every measurement runs against: one DynamoDB Local with the stack's tables, and the queue
 * and webhook receiver of bench/services.ts. The bench process is set up as a function's process
 * would be (endpoint, table and queue names, region and credentials in its environment), so that
 * it can invoke the handlers itself and write their fixtures straight to the tables.
 */
export interface BenchEnvironment {
  /** What a function's process needs: this process's additions, and every cold-start sample's whole environment. */
  env: Record<string, string>;
  services: BenchServices;
  stop(): Promise<void>;
}

export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const dynamoDb = await startDynamoDbLocal('any', undefined);
  try {
    await ensureTables(dynamoDb.endpoint, localTableName);
    const services = await startBenchServices();
    const env: Record<string, string> = {
      AWS_REGION: LOCAL_AWS_SETTINGS.region,
      AWS_ACCESS_KEY_ID: LOCAL_AWS_SETTINGS.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_AWS_SETTINGS.credentials.secretAccessKey,
      [ENV.dynamodbEndpoint]: dynamoDb.endpoint,
      [KEYS_TABLE.envVar]: localTableName(KEYS_TABLE),
      [SECRETS_TABLE.envVar]: localTableName(SECRETS_TABLE),
      ...services.env,
    };
    Object.assign(process.env, env);
    return {
      env,
      services,
      stop: async () => {
        try {
          await services.stop();
        } finally {
          await dynamoDb.stop();
        }
      },
    };
  } catch (error) {
    await dynamoDb.stop();
    throw error;
  }
}
