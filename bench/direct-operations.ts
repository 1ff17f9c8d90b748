import { createApiKey } from '../lambdas/core/keys';
import { claim, createSecret, revoke } from '../lambdas/core/secrets';
import { authenticateAndCount, deleteKey, pingKeysTable, setWebhook } from '../lambdas/store/key-store';
import { dataFilling } from '../test/support/api';
import { BENCH_KEYS_PER_IP_PER_HOUR } from './environment';
import { readRawChunks, writeRawChunks } from './raw-chunks';

/**
 * The DynamoDB calls each route makes, as plain data, run through the same store and domain
 * functions as the handlers, and the 5 MiB baselines' raw chunk writes and reads. The bench makes
 * them straight from its own process (the direct and raw baselines) and through the reference
 * server (the same calls behind a bare HTTP hop).
 */
export type DirectOperation =
  | { call: 'ping' }
  | { call: 'createKey'; clientAddress: string }
  | { call: 'readKey'; keyHash: string }
  | { call: 'setWebhook'; keyHash: string }
  | { call: 'deleteKey'; keyHash: string }
  | { call: 'createSecret'; keyHash: string }
  | { call: 'claim'; keyHash: string; id: string }
  | { call: 'revoke'; keyHash: string; id: string }
  | { call: 'writeChunks'; pk: string; data: string }
  | { call: 'readChunks'; pk: string; chunks: number };

/** What an operation answers over HTTP: the data it read, if any. */
export interface DirectAnswer {
  data?: string;
}

export const SECRET_DATA_1KB = dataFilling(1024);
export const BENCH_WEBHOOK = 'https://hooks.example.com/bench';
const SITE_URL = 'http://localhost/bench';

/** The authentication every keyed request starts with. */
const authenticate = (keyHash: string): Promise<unknown> => authenticateAndCount(keyHash, Date.now());

export async function runDirectOperation(operation: DirectOperation): Promise<DirectAnswer> {
  switch (operation.call) {
    case 'ping':
      await pingKeysTable();
      return {};
    case 'createKey':
      await createApiKey({ sourceIp: operation.clientAddress, webhook: undefined, perIpPerHour: BENCH_KEYS_PER_IP_PER_HOUR, now: Date.now() });
      return {};
    case 'readKey':
      await authenticate(operation.keyHash);
      return {};
    case 'setWebhook':
      await authenticate(operation.keyHash);
      await setWebhook(operation.keyHash, BENCH_WEBHOOK, Date.now());
      return {};
    case 'deleteKey':
      await authenticate(operation.keyHash);
      await deleteKey(operation.keyHash);
      return {};
    case 'createSecret':
      await authenticate(operation.keyHash);
      await createSecret({ data: SECRET_DATA_1KB, ttl: '1d', type: 'text', views: 1 }, operation.keyHash, SITE_URL, Date.now());
      return {};
    case 'claim':
      await authenticate(operation.keyHash);
      if (!(await claim(operation.id, Date.now()))) throw new Error('direct claim found no secret');
      return {};
    case 'revoke':
      await authenticate(operation.keyHash);
      if (!(await revoke(operation.id, operation.keyHash, Date.now()))) throw new Error('direct revoke found no secret');
      return {};
    case 'writeChunks':
      await writeRawChunks(operation.pk, operation.data);
      return {};
    case 'readChunks':
      return { data: await readRawChunks(operation.pk, operation.chunks) };
  }
}
