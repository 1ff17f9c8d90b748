import { DEFAULT_CREATE_ACCESS, type CreateAccessMode } from '#contract/create-access';
import { ENV } from '#lambdas/definitions/env';
import { KEY_CREATION_LIMIT } from '#contract/limits';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { ensureTables } from '#local/create-tables';
import { startDynamoDbLocal, type RunningDynamoDb } from '#local/dynamodb-local';
import { localTableName } from '#local/local-tables';
import { startLocalServer, startTsxServer, type LocalServer } from '#test/support/local-server';

/**
 * What every measurement runs against: one DynamoDB Local, the reference server, and local mode
 * (`npm start`, a child process) on top of them. The bench process itself is set up as a
 * handler's process would be (endpoint, table names, region and credentials in its environment),
 * so that it can write fixtures straight to the tables and time the pipeline handlers in-process.
 */
export interface BenchEnvironment {
  /** The environment a handler process needs to reach the tables: for fresh cold-start processes. */
  handlerEnv: Record<string, string>;
  /** The same DynamoDB calls as the routes make, behind a bare HTTP server (bench/reference-server.ts). */
  reference: LocalServer;
  /**
   * Local mode, with or without its request log (and the DynamoDB usage accounting behind it and
   * its x-local-* headers). Run one at a time: each reads the secrets stream and would deliver
   * every webhook.
   */
  startLocalMode(options: { requestLog: boolean; createAccess?: CreateAccessMode }): Promise<LocalServer>;
  stop(): Promise<void>;
}

/**
 * The bench creates keys far faster than the per-address default of 20 an hour allows: it runs
 * with the highest limit a deployment may set, about 1,600 creations per address and side a run.
 */
export const BENCH_KEYS_PER_IP_PER_HOUR = KEY_CREATION_LIMIT.maxPerIpPerHour;

export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const dynamoDb: RunningDynamoDb = await startDynamoDbLocal('any', undefined);
  try {
    const handlerEnv: Record<string, string> = {
      // The delivery function, timed in this process for the cost model, refuses loopback receivers without it.
      [ENV.webhookAllowLoopback]: '1',
      AWS_REGION: LOCAL_AWS_SETTINGS.region,
      AWS_ACCESS_KEY_ID: LOCAL_AWS_SETTINGS.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_AWS_SETTINGS.credentials.secretAccessKey,
      [ENV.dynamodbEndpoint]: dynamoDb.endpoint,
      [KEYS_TABLE.envVar]: localTableName(KEYS_TABLE),
      [SECRETS_TABLE.envVar]: localTableName(SECRETS_TABLE),
    };
    Object.assign(process.env, handlerEnv);
    await ensureTables(dynamoDb.endpoint, localTableName);
    const reference = await startTsxServer('bench/reference-server.ts', /reference server at (\S+)/, handlerEnv);
    return {
      handlerEnv,
      reference,
      startLocalMode: ({ requestLog, createAccess = DEFAULT_CREATE_ACCESS }) =>
        startLocalServer({
          ...handlerEnv,
          [ENV.keysPerIpPerHour]: String(BENCH_KEYS_PER_IP_PER_HOUR),
          [ENV.createAccess]: createAccess,
          LOCAL_REQUEST_LOG: requestLog ? 'on' : 'off',
        }),
      stop: async () => {
        try {
          await reference.stop();
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
