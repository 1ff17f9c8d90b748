import { readConfig } from '#lambdas/config/functions';
import { ENV } from '#lambdas/definitions/env';
import { createApiKey } from '#lambdas/use-cases/keys';
import { claim, createSecret, isGateRefusal, revoke } from '#lambdas/use-cases/secrets';
import { addressBytesWindow } from '#lambdas/use-cases/stored-bytes';
import { authenticateAndCount, deleteKey, pingKeysTable, setWebhook } from '#lambdas/store/key-store';
import { BENCH_KEYS_PER_IP_PER_HOUR } from './environment';

/**
 * What the reference server (bench/reference-server.ts) does for each route: the route's DynamoDB
 * calls, through the same domain and store functions as the handlers, and nothing else (no
 * validation, no response shaping). A secret's data travels in the operation, as it does in the
 * route's request, and a claim answers it, so the reference parses and writes the same JSON.
 */
export type ReferenceOperation =
  | { call: 'ping' }
  | { call: 'createKey'; clientAddress: string }
  | { call: 'readKey'; keyHash: string }
  | { call: 'setWebhook'; keyHash: string }
  | { call: 'deleteKey'; keyHash: string }
  | { call: 'createSecret'; keyHash: string; data: string; bodyBytes: number }
  | { call: 'claim'; keyHash: string; id: string }
  | { call: 'revoke'; keyHash: string; id: string };

/** What an operation answers: a created secret's id, a claimed secret's data. */
export interface ReferenceAnswer {
  id?: string;
  data?: string;
}

export const BENCH_WEBHOOK = 'https://hooks.example.com/bench';
/** The reference's client address: its own, so that its counts by address grow beside local mode's (127.0.0.1), not with them. */
export const REFERENCE_CLIENT_ADDRESS = '192.0.2.2';

/**
 * POST /secrets' calls for `data`, sent to the route as `routeBody`: its bytes go with it, which the
 * route counts against its key (in the authenticating write) and, for a large body, its address.
 */
export const createSecretOperation = (keyHash: string, data: string, routeBody: string): ReferenceOperation => ({
  call: 'createSecret',
  keyHash,
  data,
  bodyBytes: Buffer.byteLength(routeBody),
});
/**
 * The routes' settings (the site, the daily byte quotas) read as a route reads them, from this
 * process's environment, which the bench sets as it sets local mode's: the same quotas on both sides.
 */
const ROUTE_CONFIG = readConfig({ ...process.env, [ENV.siteUrl]: 'http://localhost/bench' });

/** The authentication every keyed request starts with. */
const authenticate = (keyHash: string): Promise<unknown> => authenticateAndCount(keyHash, Date.now());

export async function runReferenceOperation(operation: ReferenceOperation): Promise<ReferenceAnswer> {
  switch (operation.call) {
    case 'ping':
      await pingKeysTable();
      return {};
    case 'createKey':
      await createApiKey({
        sourceIp: operation.clientAddress,
        webhook: undefined,
        perIpPerHour: BENCH_KEYS_PER_IP_PER_HOUR,
        now: Date.now(),
        createAccess: { mode: 'open' },
        signInToken: undefined,
      });
      return {};
    case 'readKey':
      await authenticate(operation.keyHash);
      return {};
    case 'setWebhook':
      await authenticate(operation.keyHash);
      await setWebhook(operation.keyHash, BENCH_WEBHOOK);
      return {};
    case 'deleteKey':
      await authenticate(operation.keyHash);
      await deleteKey(operation.keyHash);
      return {};
    case 'createSecret': {
      const now = Date.now();
      await authenticateAndCount(operation.keyHash, now, operation.bodyBytes);
      await addressBytesWindow(REFERENCE_CLIENT_ADDRESS, now, operation.bodyBytes, ROUTE_CONFIG.storedBytes);
      const { id } = await createSecret({ data: operation.data, ttl: '1d', type: 'text', views: 1 }, operation.keyHash, ROUTE_CONFIG.siteUrl, now);
      return { id };
    }
    case 'claim': {
      await authenticate(operation.keyHash);
      const claimed = await claim(operation.id, Date.now(), operation.keyHash);
      if (!claimed || isGateRefusal(claimed)) throw new Error('the reference claim found no secret');
      return { data: claimed.data };
    }
    case 'revoke':
      await authenticate(operation.keyHash);
      if (!(await revoke(operation.id, operation.keyHash, Date.now()))) throw new Error('the reference revoke found no secret');
      return {};
  }
}
