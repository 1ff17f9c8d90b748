import { ENV } from '#lambdas/definitions/env';
import { API_BASE_PATH } from '#contract/limits';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { measureDynamoDbUsage } from './dynamodb-usage';
import { SDK_CALL_LOG_ENV, recordSdkCalls } from './sdk-calls';
import { ensureTables, localTableName } from './create-tables';
import { assertPortFree, freePort, isAddressInUse, portInUse } from './free-port';
import { watchLaunchers } from './launcher-watch';
import { LOCAL_AWS_SETTINGS } from './aws-account';
import { startDynamoDbLocal, type RunningDynamoDb } from './dynamodb-local';
import { createGateway, loadRoutes } from './gateway';
import { prepareInvocationScopes } from './invocation-scope';
import { loadPages } from './pages';
import { readSettingsWhere } from '#lambdas/config/environment';
import { pagesConfig, SETTINGS } from '#lambdas/config/settings';
import { prepareDataDir, readLocalSettings, type LocalSettings } from './settings';
import { LOCAL_SIGN_IN } from './sign-in-accounts';
import { startSignInProviderProcess, type LocalSignInProvider } from './sign-in-provider';
import { startWebhookPipelineProcess, type LocalWebhookPipeline } from './webhook-pipeline';

/** `npm start`: the whole service on this machine, as the stack wires it (docs/local-mode.md). */

/** `port` as `variable` set it, any free one for 0, after checking that it is free. */
async function portFrom(variable: string, port: number): Promise<number> {
  if (port === 0) return freePort();
  await assertPortFree(port, variable);
  return port;
}

interface Started {
  signIn?: LocalSignInProvider;
  dynamoDb?: RunningDynamoDb;
  server?: Server;
  webhooks?: LocalWebhookPipeline;
}

/** DynamoDB Local stops last, and even if stopping the rest failed: its java process would outlive ours. */
async function stopStarted({ signIn, dynamoDb, server, webhooks }: Started): Promise<void> {
  try {
    await signIn?.stop();
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await webhooks?.stop();
  } finally {
    await dynamoDb?.stop();
  }
}

/** Records each part in `started` as it comes up, so that a failure can stop exactly those. */
async function start(started: Started, settings: LocalSettings, port: number, dataDir: string | undefined): Promise<LocalWebhookPipeline> {
  const env = process.env;
  if (settings.localSignIn) {
    const signInPort = settings.localSignIn.port === 0 ? 0 : await portFrom('LOCAL_OIDC_PORT', settings.localSignIn.port);
    started.signIn = await startSignInProviderProcess({
      port: signInPort,
      pageOrigins: [
        ...new Set([`http://localhost:${port}`, `http://127.0.0.1:${port}`, new URL(env[SETTINGS.siteUrl.env] ?? `http://localhost:${port}`).origin]),
      ],
      signingKey: settings.localSignIn.signingKey,
    });
    // What POST /keys and the pages read, as the stack sets them from its user pool.
    env[SETTINGS.oidcIssuer.env] = started.signIn.issuer;
    env[SETTINGS.oidcAudience.env] = LOCAL_SIGN_IN.clientId;
    // Its one account's domain, unless told otherwise: the allow-list is checked as on AWS.
    if (!env[SETTINGS.oidcAllowedDomains.env] && !env[SETTINGS.oidcAllowedGroups.env] && !env[SETTINGS.oidcAnyAccount.env]) {
      env[SETTINGS.oidcAllowedDomains.env] = LOCAL_SIGN_IN.emailDomain;
    }
  }
  let endpoint = settings.dynamoDbEndpoint;
  if (!endpoint) {
    const dynamoDbPort = settings.dynamoDbLocalPort === 0 ? 'any' : await portFrom('DYNAMODB_LOCAL_PORT', settings.dynamoDbLocalPort);
    started.dynamoDb = await startDynamoDbLocal(dynamoDbPort, dataDir);
    endpoint = started.dynamoDb.endpoint;
  }

  env[ENV.dynamodbEndpoint] = endpoint;

  const tables = await ensureTables(endpoint, localTableName);
  const secretsTableName = localTableName(SECRETS_TABLE);
  const secretsTable = tables.get(secretsTableName);
  if (!secretsTable?.streamArn) throw new Error(`table ${secretsTableName} has no stream`);
  const { requestLog } = settings;
  // Imported only now: the functions' client is built when its module loads, from DYNAMODB_ENDPOINT.
  const { dynamo } = await import('#lambdas/store/dynamo');
  if (requestLog) measureDynamoDbUsage(dynamo);
  const sdkCallLog = env[SDK_CALL_LOG_ENV];
  if (sdkCallLog) recordSdkCalls(dynamo, 'dynamodb', sdkCallLog);
  started.webhooks = await startWebhookPipelineProcess({
    dynamoDbEndpoint: endpoint,
    secretsStreamArn: secretsTable.streamArn,
    secretsTableIsNew: secretsTable.created,
    ...(dataDir ? { dataDir } : {}),
  });
  // Before the routes load: POST /keys/webhook/test's SQS client is built from these, as the stack sets them.
  env[ENV.sqsEndpoint] = started.webhooks.sqsEndpoint;
  env[QUEUES.jobs.envVar] = started.webhooks.queueUrl;
  if (sdkCallLog) recordSdkCalls((await import('#lambdas/webhooks/queue/sqs')).sqs, 'sqs', sdkCallLog);
  started.server = createGateway(await loadRoutes(), { log: (line) => console.log(line), requestLog, pages: loadPages(localPagesConfig()) });
  await once(started.server.listen(port, settings.listenHost), 'listening').catch((error: unknown) => {
    // Taken since the check at start, by a process quicker than DynamoDB Local.
    throw isAddressInUse(error) ? portInUse(port, 'PORT') : error;
  });
  return started.webhooks;
}

/** The pages' config.json from local mode's environment, as POST /keys reads it; the pages' client id is the audience, as with the stack's pool. */
function localPagesConfig() {
  const settings = readSettingsWhere((row) => row.in?.includes('pages') === true || row.functions?.includes('keys-create') === true, process.env);
  return pagesConfig({ ...settings, oidcClientId: settings.oidcAudience });
}

const isLoopback = (host: string): boolean => host === '::1' || host.startsWith('127.');

async function main(): Promise<void> {
  const settings = readLocalSettings();
  prepareInvocationScopes();
  const env = process.env;
  // As on Lambda, the handlers' clients read region and credentials from the environment.
  env.AWS_REGION ??= LOCAL_AWS_SETTINGS.region;
  env.AWS_ACCESS_KEY_ID ??= LOCAL_AWS_SETTINGS.credentials.accessKeyId;
  env.AWS_SECRET_ACCESS_KEY ??= LOCAL_AWS_SETTINGS.credentials.secretAccessKey;
  // Port 0 asks for any free port; it is resolved now because SITE_URL defaults to it.
  const port = await portFrom('PORT', settings.port);
  env[SETTINGS.siteUrl.env] ||= `http://localhost:${port}`;
  // Absolute from here on, for DynamoDB Local and the forked pipeline alike.
  const dataDir = prepareDataDir(settings.dataDir);

  const started: Started = {};
  let webhooks: LocalWebhookPipeline;
  try {
    webhooks = await start(started, settings, port, dataDir);
  } catch (error) {
    // The start-up error is the one to report; a failure to stop after it comes second.
    await stopStarted(started).catch((stopError: unknown) => console.error('stopping failed too:', stopError));
    throw error;
  }

  let stopping = false;
  const stop = async (reason: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`${reason}: stopping`);
    await stopStarted(started);
    process.exit(0);
  };
  // SIGHUP: the terminal was closed.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(`${signal} received`));
  watchLaunchers(() => void stop('the process that started local mode (npm) ended'));

  const queues = `${ENV.sqsEndpoint}=${webhooks.sqsEndpoint} ${QUEUES.jobs.envVar}=${webhooks.queueUrl} ${QUEUES.deadLetters.envVar}=${webhooks.deadLetterQueueUrl}`;
  console.log(`Webhook dead letters: ${queues} npm run dlq -- list (or redrive)`);
  const failures = `${ENV.dynamodbEndpoint}=${env[ENV.dynamodbEndpoint]} ${KEYS_TABLE.envVar}=${localTableName(KEYS_TABLE)} ${ENV.sqsEndpoint}=${webhooks.sqsEndpoint} ${QUEUES.jobs.envVar}=${webhooks.queueUrl} ${QUEUES.fanOutFailures.envVar}=${webhooks.fanOutFailureQueueUrl}`;
  console.log(`Webhook fan-out failures: ${failures} npm run dlq -- replay`);
  console.log(`Pages at http://localhost:${port}/ (share) and ${env[SETTINGS.siteUrl.env]}/<id> (reveal)`);
  if (started.signIn) {
    const { login, password } = LOCAL_SIGN_IN.testUser;
    console.log(`Sign-in (CREATE_ACCESS=signed-in): OpenID provider at ${started.signIn.issuer}, test user ${login}, password ${password}`);
  }
  if (!isLoopback(settings.listenHost)) {
    console.warn(`warning: LISTEN_HOST=${settings.listenHost}: the API and pages answer every machine that reaches this one, not this one alone`);
  }
  console.log(`API ready at http://localhost:${port}${API_BASE_PATH}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
