import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OnetimeClient } from '#client/client';
import { createKey } from '#test/support/api';
import { testEnv } from '#test/support/environment';
import { answerOf, leaked, startMcp, type McpUnderTest } from '#test/support/mcp';

/**
 * `onetime mcp` (docs/client.md, "MCP server") through the SDK's own client over stdio, against
 * local mode: every tool, every refusal, and a scan of every result and of stderr for the
 * plaintexts, passphrases and receive links used.
 */

const TEXT = 'db-password: Tr0ub4dor&3 ✓ "quoted"';
const FILE_BYTES = Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 13, 0x41]);
const ENV_SECRET = 'env-secret-7c1a9e';
const PASSPHRASE = 'staple horse battery correct';
const WRONG_PASSPHRASE = 'not the passphrase at all';
const ANSWER = 'answered-secret-42 ✓';
/** Filled as receive links come to light (the state files hold them): none may be seen. */
const receiveKeys: string[] = [];

let apiKey: string;
let folder: string;
let stateDir: string;
let mcp: McpUnderTest;

const envFor = (extra: Record<string, string> = {}): Record<string, string> => ({
  ONETIME_API_URL: testEnv('baseUrl'),
  ONETIME_STATE_DIR: stateDir,
  SECRET_FROM_ENV: ENV_SECRET,
  ...extra,
});

beforeAll(async () => {
  apiKey = (await createKey()).key;
  folder = await mkdtemp(path.join(tmpdir(), 'onetime-mcp-'));
  stateDir = path.join(folder, 'state');
  mcp = await startMcp(envFor({ ONETIME_API_KEY: apiKey }));
});
afterAll(async () => {
  await mcp?.close();
  await rm(folder, { recursive: true, force: true });
});

const inFolder = (name: string): string => path.join(folder, name);
const listing = (): Promise<string[]> => readdir(folder, { recursive: true });
const modeOf = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

async function share(args: Record<string, unknown>): Promise<{ link: string; id: string; expires: string }> {
  const result = await mcp.call('share_secret', args);
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toEqual(answerOf(result));
  return answerOf(result) as { link: string; id: string; expires: string };
}

/** A refusal: the tool error's text, and nothing left on disk by it. */
async function refused(tool: string, args: Record<string, unknown>): Promise<string> {
  const before = await listing();
  const result = await mcp.call(tool, args);
  expect(result.isError).toBe(true);
  expect(await listing()).toEqual(before);
  return String(answerOf(result).error);
}

test('lists the five tools, each saying that plaintext never comes back', async () => {
  const { tools } = await mcp.client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(['receive_secret', 'request_secret', 'reveal_secret', 'secret_status', 'share_secret']);
  for (const tool of tools) {
    expect(tool.description).toMatch(/never (comes back|shows the content)/);
    expect(tool.outputSchema).toMatchObject({ type: 'object' });
  }
});

describe('share, reveal and status', () => {
  test('text goes from the call to a 0600 file; a second reveal finds it gone and writes nothing', async () => {
    const before = Date.now();
    const shared = await share({ text: TEXT, ttl: '1h' });
    expect(shared.link).toMatch(new RegExp(`/${shared.id}#[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(shared.expires)).toBeGreaterThanOrEqual(before + 3_600_000);
    const target = inFolder('text.txt');
    const revealed = await mcp.call('reveal_secret', { link: shared.link, to_file: target });
    expect(revealed.structuredContent).toEqual({ type: 'text', bytes: Buffer.byteLength(TEXT), remaining: 0, file: target });
    expect(await readFile(target, 'utf8')).toBe(TEXT);
    expect(await modeOf(target)).toBe(0o600);
    expect(await refused('reveal_secret', { link: shared.link, to_file: inFolder('again.txt') })).toBe('the secret does not exist or is gone');
  });

  test('a file keeps its bytes and name; secret_status tells its views by link and by id', async () => {
    const source = inFolder('dump.bin');
    await writeFile(source, FILE_BYTES);
    const shared = await share({ from_file: source, views: 2 });
    const target = inFolder('out.bin');
    const revealed = await mcp.call('reveal_secret', { link: shared.link, to_file: target });
    expect(revealed.structuredContent).toEqual({ type: 'file', bytes: FILE_BYTES.length, remaining: 1, file: target, filename: 'dump.bin' });
    expect((await readFile(target)).equals(FILE_BYTES)).toBe(true);
    const byLink = await mcp.call('secret_status', { link: shared.link });
    expect(byLink.structuredContent).toMatchObject({ state: 'active', views: 2, remaining: 1, viewed: [expect.any(Number)] });
    expect((await mcp.call('secret_status', { id: shared.id })).structuredContent).toEqual(byLink.structuredContent);
  });

  test("an environment variable of the server's process is shared by its name", async () => {
    const shared = await share({ from_env: 'SECRET_FROM_ENV' });
    const target = inFolder('env.txt');
    expect((await mcp.call('reveal_secret', { link: shared.link, to_file: target })).isError).toBeFalsy();
    expect(await readFile(target, 'utf8')).toBe(ENV_SECRET);
  });

  test('a passphrase from a file gates the secret; a wrong one uses no view and writes nothing', async () => {
    const right = inFolder('passphrase');
    const wrong = inFolder('wrong-passphrase');
    await writeFile(right, `${PASSPHRASE}\n`);
    await writeFile(wrong, WRONG_PASSPHRASE);
    const shared = await share({ text: TEXT, passphrase_file: right });
    expect(shared.link).toMatch(/#p\./);
    const target = inFolder('gated.txt');
    expect(await refused('reveal_secret', { link: shared.link, to_file: target })).toBe('this link needs a passphrase: give passphrase_file');
    expect(await refused('reveal_secret', { link: shared.link, to_file: target, passphrase_file: wrong })).toBe(
      'wrong passphrase: 4 attempts left before the secret is deleted',
    );
    const revealed = await mcp.call('reveal_secret', { link: shared.link, to_file: target, passphrase_file: right });
    expect(revealed.structuredContent).toMatchObject({ type: 'text', remaining: 0 });
    expect(await readFile(target, 'utf8')).toBe(TEXT);
  });
});

describe('bad input answers a tool error and leaves nothing behind', () => {
  test.each([
    ['both from_file and text', { from_file: '/etc/hostname', text: TEXT }, 'give exactly one of from_file, from_env and text'],
    ['none of them', { ttl: '1h' }, 'give exactly one of from_file, from_env and text'],
    ['a missing file', { from_file: '/nonexistent/secret.txt' }, 'cannot read /nonexistent/secret.txt: ENOENT'],
    [
      'an unset variable',
      { from_env: 'NOT_SET_ANYWHERE' },
      "the environment variable NOT_SET_ANYWHERE is not set, or empty, in the server's process",
    ],
    ['a missing passphrase file', { text: TEXT, passphrase_file: '/nonexistent/p' }, 'cannot read the passphrase file /nonexistent/p: ENOENT'],
  ])('share_secret refuses %s', async (_, args, message) => {
    expect(await refused('share_secret', args)).toBe(message);
  });

  test('share_secret refuses a ttl the service does not offer, by the schema', async () => {
    expect(await refused('share_secret', { text: TEXT, ttl: '2d' })).toMatch(/ttl/);
  });

  test('reveal_secret refuses an existing to_file, leaving it as it was, and a malformed link, before any view', async () => {
    const shared = await share({ text: TEXT });
    const existing = inFolder('existing.txt');
    await writeFile(existing, 'keep me');
    expect(await refused('reveal_secret', { link: shared.link, to_file: existing })).toBe(`${existing} exists: name a file that does not exist yet`);
    expect(await readFile(existing, 'utf8')).toBe('keep me');
    expect(await refused('reveal_secret', { link: shared.link.slice(0, -5), to_file: inFolder('cut.txt') })).toMatch(/^invalid link: /);
    expect(await refused('reveal_secret', { link: shared.link, to_file: inFolder('no-such-folder/x.txt') })).toMatch(/is not a folder$/);
    // None of these used the one view.
    expect((await mcp.call('reveal_secret', { link: shared.link, to_file: inFolder('finally.txt') })).isError).toBeFalsy();
  });

  test('secret_status wants exactly one of link and id', async () => {
    expect(await refused('secret_status', {})).toBe('give exactly one of link and id');
    expect(await refused('secret_status', { link: 'https://x.test/s/AAAAAAAAAAAAAAAAAAAAAA', id: 'AAAAAAAAAAAAAAAAAAAAAA' })).toBe(
      'give exactly one of link and id',
    );
  });

  test('receive_secret refuses an unknown request, an id that is a path, and a wait past 300 s', async () => {
    const file = inFolder('never.txt');
    expect(await refused('receive_secret', { request_id: 'AAAAAAAAAAAAAAAAAAAAAA', to_file: file })).toMatch(
      /^no open request AAAAAAAAAAAAAAAAAAAAAA/,
    );
    expect(await refused('receive_secret', { request_id: '../../etc/passwd', to_file: file })).toMatch(/^no open request/);
    expect(await refused('receive_secret', { request_id: 'AAAAAAAAAAAAAAAAAAAAAA', to_file: file, wait_seconds: 301 })).toMatch(/wait_seconds/);
  });
});

/** The receive link a request's state file keeps; its private key is added to what must never be seen. */
async function keptReceiveLink(id: string): Promise<string> {
  const kept = JSON.parse(await readFile(path.join(stateDir, `request-${id}.json`), 'utf8')) as { receiveLink: string };
  receiveKeys.push(kept.receiveLink.slice(kept.receiveLink.indexOf('#') + 1).split('.')[0] ?? '', kept.receiveLink);
  return kept.receiveLink;
}

/** A person answering the request link with the library, as `onetime fulfil` does. */
async function answer(requestLink: string, content: string): Promise<void> {
  await new OnetimeClient({ baseUrl: testEnv('baseUrl'), apiKey: (await createKey()).key }).fulfil(requestLink, content);
}

describe('request and receive', () => {
  test('pending until answered, then the answer in a 0600 file; the kept receive link is gone after', async () => {
    const requested = answerOf(await mcp.call('request_secret', { note: 'The staging database password, please', ttl: '1h' }));
    expect(Object.keys(requested).sort()).toEqual(['expires', 'request_id', 'request_link']);
    const id = String(requested.request_id);
    expect(requested.request_link).toMatch(new RegExp(`/r/${id}#[A-Za-z0-9_-]{43}$`));
    const stateFile = path.join(stateDir, `request-${id}.json`);
    expect(await modeOf(stateDir)).toBe(0o700);
    expect(await modeOf(stateFile)).toBe(0o600);
    await keptReceiveLink(id);

    const target = inFolder('answer.txt');
    expect((await mcp.call('receive_secret', { request_id: id, to_file: target })).structuredContent).toEqual({ state: 'pending' });
    expect(await listing()).not.toContain('answer.txt');
    await answer(String(requested.request_link), ANSWER);
    const received = await mcp.call('receive_secret', { request_id: id, to_file: target, wait_seconds: 5 });
    expect(received.structuredContent).toEqual({ state: 'fulfilled', bytes: Buffer.byteLength(ANSWER), file: target });
    expect(await readFile(target, 'utf8')).toBe(ANSWER);
    expect(await modeOf(target)).toBe(0o600);
    await expect(stat(stateFile)).rejects.toThrow(/ENOENT/);
    expect(await refused('receive_secret', { request_id: id, to_file: inFolder('twice.txt') })).toMatch(/^no open request/);
  });

  test('without an API key: a minted one, kept with the request, so that a restarted server still receives', async () => {
    const first = await startMcp(envFor());
    const requested = answerOf(await first.call('request_secret', {}));
    const id = String(requested.request_id);
    expect(JSON.parse(await readFile(path.join(stateDir, `request-${id}.json`), 'utf8'))).toEqual({
      receiveLink: expect.stringMatching(/\/receive#[A-Za-z0-9_-]{43}$/),
      apiKey: expect.stringMatching(/^svc_/),
    });
    await keptReceiveLink(id);
    await first.close();

    await answer(String(requested.request_link), ANSWER);
    const second = await startMcp(envFor());
    const target = inFolder('after-restart.txt');
    expect((await second.call('receive_secret', { request_id: id, to_file: target })).structuredContent).toMatchObject({ state: 'fulfilled' });
    expect(await readFile(target, 'utf8')).toBe(ANSWER);
    await second.close();
  });
});

test('no result and nothing on stderr carried a plaintext, a passphrase or a receive link', () => {
  expect(receiveKeys.length).toBeGreaterThan(0);
  expect(leaked([TEXT, ENV_SECRET, PASSPHRASE, WRONG_PASSPHRASE, ANSWER, FILE_BYTES.toString('base64'), ...receiveKeys])).toEqual([]);
});
