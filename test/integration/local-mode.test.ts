import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { freePort } from '#local/free-port';
import { eventually } from '../support/eventually';
import { api } from '../support/api';
import { startLocalServer } from '../support/local-server';
import { liveProcesses, portIsOpen, processTree, type LiveProcess } from './support/processes';

/** `npm start` as a user runs it: its own DynamoDB Local, DATA_DIR, a clean stop. */

/** The webhook pipeline's process under `root` (local mode's process tree), if one runs. */
const pipelineProcessUnder = (root: number): LiveProcess | undefined =>
  processTree(root).find((each) => each.command.includes('webhook-pipeline-entry'));

const isLive = (pid: number): boolean => liveProcesses().some((each) => each.pid === pid);

test('runs the webhook pipeline in a process of its own, which ends when local mode stops or dies', async () => {
  const dynamoDb = await startDynamoDbLocal('any', undefined);
  try {
    const stopped = await startLocalServer({ DYNAMODB_ENDPOINT: dynamoDb.endpoint });
    const pipeline = pipelineProcessUnder(stopped.child.pid as number);
    expect(pipeline).toBeDefined();
    expect(await stopped.stop()).toBe(0);
    expect(isLive(pipeline?.pid as number)).toBe(false);

    const killed = await startLocalServer({ DYNAMODB_ENDPOINT: dynamoDb.endpoint });
    const orphan = pipelineProcessUnder(killed.child.pid as number);
    expect(orphan).toBeDefined();
    // Local mode's own node process: killed outright, it cannot stop anything itself.
    process.kill(orphan?.parent as number, 'SIGKILL');
    await killed.stop();
    await eventually(() => expect(isLive(orphan?.pid as number)).toBe(false));
  } finally {
    await dynamoDb.stop();
  }
});

// Two starts of DynamoDB Local, up to ~45 s each on a 2-core host busy with other suites.
test('starts its own DynamoDB Local, keeps data in DATA_DIR across restarts, stops everything on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ots-data-'));
  try {
    const dynamoDbPort = await freePort();
    const env = { DATA_DIR: dataDir, DYNAMODB_LOCAL_PORT: String(dynamoDbPort), DYNAMODB_ENDPOINT: '' };

    const first = await startLocalServer(env);
    expect(first.baseUrl).toMatch(/^http:\/\/localhost:\d+\/api\/v1$/);
    const created = await api<{ key: string }>('POST', '/keys', { baseUrl: first.baseUrl });
    expect(created.status).toBe(201);
    const secret = await api<{ id: string; url: string }>('POST', '/secrets', {
      baseUrl: first.baseUrl,
      key: created.body.key,
      json: { data: 'cGVyc2lzdGVk', views: 2 },
    });
    // SITE_URL defaults to the server's own address.
    expect(secret.body.url).toBe(`${first.baseUrl.replace('/api/v1', '')}/${secret.body.id}`);
    expect(await portIsOpen(dynamoDbPort)).toBe(true);

    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('SIGTERM received');
    expect(await portIsOpen(dynamoDbPort)).toBe(false);

    const second = await startLocalServer(env);
    try {
      const claim = await api('GET', `/secrets/${secret.body.id}`, { baseUrl: second.baseUrl, key: created.body.key });
      expect(claim.status).toBe(200);
      expect(claim.body).toMatchObject({ data: 'cGVyc2lzdGVk', remaining: 1 });
    } finally {
      expect(await second.stop()).toBe(0);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
