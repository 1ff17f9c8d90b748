import { SETTINGS } from '#lambdas/config/settings';
import { ENV } from '#lambdas/definitions/env';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { testEnv } from '#test/support/environment';
import { startLocalServer, type LocalServer } from '#test/support/local-server';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver';
import { startedForThisFile } from '#test/support/for-this-file';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

/**
 * A local-mode server of a test file's own (its own tables, loopback webhooks allowed) and a real
 * receiver for its keys' webhooks: the start-up every file that follows webhooks end to end shares.
 */

export interface ServerWithReceiver {
  server: LocalServer;
  receiver: WebhookReceiver;
  baseUrl: string;
  /** Stops the server, then the receiver. */
  stop(): Promise<void>;
}

export interface ServerWithReceiverOptions {
  keysTable: string;
  secretsTable: string;
  /** Where the server reaches DynamoDB; by default the run's DynamoDB Local. */
  dynamodbEndpoint?: string;
  /** Further local-mode settings, by their ENV names. */
  env?: Record<string, string>;
}

async function startServerWithReceiver(options: ServerWithReceiverOptions): Promise<ServerWithReceiver> {
  const receiver = await startWebhookReceiver();
  try {
    const server = await startLocalServer({
      [ENV.dynamodbEndpoint]: options.dynamodbEndpoint ?? testEnv('dynamodbEndpoint'),
      [KEYS_TABLE.envVar]: options.keysTable,
      [SECRETS_TABLE.envVar]: options.secretsTable,
      [SETTINGS.webhookAllowLoopback.env]: '1',
      ...options.env,
    });
    const stop = async (): Promise<void> => {
      await server.stop();
      await receiver.stop();
    };
    return { server, receiver, baseUrl: server.baseUrl, stop };
  } catch (error) {
    await receiver.stop();
    throw error;
  }
}

export interface ServerBehindFaultProxy extends ServerWithReceiver {
  proxy: FaultProxy;
}

async function startServerBehindFaultProxy(options: Omit<ServerWithReceiverOptions, 'dynamodbEndpoint'>): Promise<ServerBehindFaultProxy> {
  const proxy = await startFaultProxy(testEnv('dynamodbEndpoint'));
  try {
    const started = await startServerWithReceiver({ ...options, dynamodbEndpoint: proxy.endpoint });
    const stop = async (): Promise<void> => {
      await started.stop();
      await proxy.stop();
    };
    return { ...started, proxy, stop };
  } catch (error) {
    await proxy.stop();
    throw error;
  }
}

/**
 * Starts a server and receiver before the file's tests (handing them to `onStarted`) and stops
 * them after: the hooks each such file would otherwise write again.
 */
export function serverWithReceiverForThisFile(options: ServerWithReceiverOptions, onStarted: (started: ServerWithReceiver) => void): void {
  startedForThisFile(() => startServerWithReceiver(options), onStarted);
}

/** The same, with a fault proxy between the server and DynamoDB Local: for the files that lose DynamoDB's answers. */
export function serverBehindFaultProxyForThisFile(
  options: Omit<ServerWithReceiverOptions, 'dynamodbEndpoint'>,
  onStarted: (started: ServerBehindFaultProxy) => void,
): void {
  startedForThisFile(() => startServerBehindFaultProxy(options), onStarted);
}
