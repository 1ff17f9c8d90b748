import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { api } from '../support/api';
import { npmStart } from './support/npm-start';
import { portIsOpen, processTree, survivors, type LiveProcess } from './support/processes';

/**
 * However `npm start` is stopped, nothing it started goes on running: npm, sh, local mode's node,
 * DynamoDB Local's java and the webhook pipeline's process. And what a new user gets wrong first
 * (a taken port, a relative DATA_DIR) gets a plain answer.
 */

jest.setTimeout(180_000);

/** Each part of the tree by what runs in it; `node` is local mode's own, sh's child, with tsx as its loader (no tsx process). */
function parts(tree: readonly LiveProcess[]): Record<'npm' | 'sh' | 'node' | 'java' | 'pipeline', LiveProcess | undefined> {
  const sh = tree.find((each) => each.command.startsWith('sh -c node'));
  return {
    npm: tree[0],
    sh,
    node: tree.find((each) => each.parent === sh?.pid && each.command.includes('local/main.ts')),
    java: tree.find((each) => each.command.includes('DynamoDBLocal.jar')),
    pipeline: tree.find((each) => each.command.includes('webhook-pipeline-entry')),
  };
}

const dynamoDbPortOf = (java: LiveProcess | undefined): number => Number(/-port (\d+)/.exec(java?.command ?? '')?.[1]);

const STOPPED_BY_LAUNCHER = 'the process that started local mode (npm) ended: stopping';

const WAYS_TO_STOP = [
  { way: 'Ctrl-C (SIGINT to the process group)', target: 'group', signal: 'SIGINT', says: 'SIGINT received: stopping' },
  { way: 'SIGTERM to npm', target: 'npm', signal: 'SIGTERM', says: STOPPED_BY_LAUNCHER },
  { way: 'SIGKILL to npm', target: 'npm', signal: 'SIGKILL', says: STOPPED_BY_LAUNCHER },
  // Killed outright, local mode cannot say anything: its java's guard and the pipeline's IPC channel end them.
  { way: "SIGKILL to local mode's node", target: 'node', signal: 'SIGKILL', says: undefined },
] as const;

test.each(WAYS_TO_STOP)('$way stops every process npm start started and frees its ports', async ({ target, signal, says }) => {
  const started = npmStart({});
  let tree: LiveProcess[] = [];
  try {
    const baseUrl = await started.ready;
    tree = processTree(started.npm.pid as number);
    const { npm, sh, node, java, pipeline } = parts(tree);
    for (const part of [npm, sh, node, java, pipeline]) expect(part).toBeDefined();
    const ports = [Number(new URL(baseUrl).port), dynamoDbPortOf(java)];

    const pid = { group: -(npm?.pid as number), npm: npm?.pid, node: node?.pid }[target] as number;
    process.kill(pid, signal);

    // The bound is a limit on waiting (a clean stop takes a second or two), not a timing assertion.
    await eventually(async () => {
      expect(survivors(tree)).toEqual([]);
      for (const port of ports) expect(await portIsOpen(port)).toBe(false);
    }, 60_000);
    if (says) expect(started.output()).toContain(says);
  } finally {
    // A failed case must not leave its processes to the next.
    for (const each of survivors(tree)) process.kill(each.pid, 'SIGKILL');
  }
});

/** A port taken by another program, as a second `npm start` or anything else would take it. */
async function withTakenPort(use: (port: number) => Promise<void>): Promise<void> {
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(0, resolve));
  try {
    await use((holder.address() as { port: number }).port);
  } finally {
    holder.close();
  }
}

test.each(['PORT', 'DYNAMODB_LOCAL_PORT'])('a taken %s says which variable to set, and exits', async (variable) => {
  await withTakenPort(async (port) => {
    const started = npmStart({ [variable]: String(port) });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain(`port ${port} is in use: set ${variable} to another port (${variable}=${port + 1} npm start)`);
  });
});

test('bad settings are each named, with what they must be and what was given, and npm start exits', async () => {
  const started = npmStart({ KEYS_PER_IP_PER_HOUR: 'many', LOCAL_REQUEST_LOG: 'no' });
  expect(await started.exited).toBe(1);
  expect(started.output()).toContain(
    'KEYS_PER_IP_PER_HOUR must be an integer from 1 to 10000 (so that an address\'s hour of attempts fits one DynamoDB item), got "many"',
  );
  expect(started.output()).toContain('LOCAL_REQUEST_LOG must be one of on, off, got "no"');
});

test('a relative DATA_DIR is taken from the folder npm start runs in, and created', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'ots-cwd-'));
  const started = npmStart({ DATA_DIR: 'data/local' }, folder);
  try {
    const baseUrl = await started.ready;
    expect((await api('POST', '/keys', { baseUrl })).status).toBe(201);
    // DynamoDB Local keeps everything (-sharedDb) in one file there.
    expect(readdirSync(path.join(folder, 'data/local'))).toContain('shared-local-instance.db');
  } finally {
    process.kill(-(started.npm.pid as number), 'SIGINT');
    await started.exited;
    rmSync(folder, { recursive: true, force: true });
  }
});
