import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vectors from '../../../client/test-vectors-v2.json';
import { GATE } from '#contract/limits';
import { api, createKey, createSecret } from '#test/support/api';
import { testEnv } from '#test/support/environment';
import { onetime, type CliResult } from '../support/cli';

/** `onetime` with a passphrase (docs/client.md): from a file or the terminal, never from argv. */

const TEXT = 'Grüße, 世界 🔑\n\nline two\n';
const GONE = 'onetime: the secret does not exist or is gone\n';
const GATED_LINK = /^https?:\/\/\S+\/[A-Za-z0-9_-]{22}#p\.[A-Za-z0-9_-]{43}$/;

let apiKey: string;
let folder: string;
beforeAll(async () => {
  apiKey = (await createKey()).key;
});
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onetime-passphrase-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

async function passphraseFile(text: string): Promise<string> {
  const file = path.join(folder, `passphrase-${Math.random().toString(36).slice(2)}`);
  await writeFile(file, text);
  return file;
}

async function shareGated(passphrase: string, views = 1): Promise<string> {
  const result = await onetime(['share', '--views', String(views), '--passphrase-file', await passphraseFile(passphrase)], { apiKey, stdin: TEXT });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  const link = result.stdout.toString().trim();
  expect(link).toMatch(GATED_LINK);
  return link;
}

const reveal = async (link: string, passphrase: string): Promise<CliResult> =>
  onetime(['reveal', link, '--passphrase-file', await passphraseFile(passphrase)], { apiKey });

test('a gated link made and opened with passphrase files; one line ending is not part of the passphrase', async () => {
  const link = await shareGated('  spaces count, the newline not \n');
  const revealed = await reveal(link, '  spaces count, the newline not ');
  expect({ code: revealed.code, stderr: revealed.stderr, text: revealed.stdout.toString() }).toEqual({ code: 0, stderr: '', text: TEXT });
  expect(await reveal(link, '  spaces count, the newline not ')).toMatchObject({ code: 2, stderr: GONE });
});

test('a wrong passphrase uses no view and says how many attempts are left; the right one still works', async () => {
  const link = await shareGated('right one');
  expect(await reveal(link, 'wrong one')).toMatchObject({
    code: 3,
    stderr: 'onetime: wrong passphrase: 4 attempts left before the secret is deleted\n',
  });
  expect(await reveal(link, 'right one ')).toMatchObject({
    code: 3,
    stderr: 'onetime: wrong passphrase: 3 attempts left before the secret is deleted\n',
  });
  const revealed = await reveal(link, 'right one');
  expect({ code: revealed.code, text: revealed.stdout.toString() }).toEqual({ code: 0, text: TEXT });
});

test('the 5th wrong passphrase deletes the secret, and says so', async () => {
  const link = await shareGated('right one');
  for (let left = 4; left >= 2; left--) expect((await reveal(link, 'wrong')).stderr).toMatch(`${left} attempts left`);
  expect((await reveal(link, 'wrong')).stderr).toMatch('1 attempt left');
  expect(await reveal(link, 'wrong')).toMatchObject({
    code: 2,
    stderr: 'onetime: wrong passphrase: that was the last attempt, and the secret has been deleted\n',
    stdout: Buffer.alloc(0),
  });
  expect(await reveal(link, 'right one')).toMatchObject({ code: 2, stderr: GONE });
});

test('without a terminal or a file, a gated link is refused before any request: the view is still there', async () => {
  const link = await shareGated('pw');
  expect(await onetime(['reveal', link], { apiKey })).toMatchObject({
    code: 1,
    stderr: 'onetime: no terminal to ask for the passphrase on: use --passphrase-file PATH\n',
  });
  expect((await reveal(link, 'pw')).stdout.toString()).toBe(TEXT);
});

test('an empty passphrase file is refused, and a passphrase is never taken from the arguments', async () => {
  expect(await onetime(['share', '--passphrase-file', await passphraseFile('\n')], { apiKey, stdin: 'x' })).toMatchObject({ code: 1 });
  const inArgs = await onetime(['share', '--passphrase', 'hunter2'], { apiKey, stdin: 'x' });
  expect(inArgs.code).toBe(1);
  expect(inArgs.stderr).not.toContain('hunter2');
});

test('the CLI opens a secret made from the v2 test vectors (node:crypto)', async () => {
  const [text] = vectors.envelopes;
  const [derivation] = vectors.derivations;
  const { id } = await createSecret(apiKey, { data: text?.sent, gate: derivation?.gateBase64Url });
  const link = `${testEnv('siteUrl').replace(/\/$/, '')}/${id}${new URL(vectors.link.link).hash}`;
  const revealed = await reveal(link, derivation?.passphrase ?? '');
  expect({ code: revealed.code, stderr: revealed.stderr, text: revealed.stdout.toString() }).toEqual({
    code: 0,
    stderr: '',
    text: text?.plaintextUtf8,
  });
});

/**
 * `onetime` on a pseudo-terminal (util-linux `script`), typing `lines` one by one once it asks:
 * what a person at a terminal sees, standard output and error mixed, as the terminal shows them.
 */
function onTerminal(args: string[], lines: string[]): Promise<{ code: number | null; screen: string }> {
  const onetimeBin = path.resolve(__dirname, '../../../node_modules/.bin/onetime');
  const command = [onetimeBin, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  const env = { ...process.env, ONETIME_API_URL: testEnv('baseUrl'), ONETIME_API_KEY: apiKey };
  const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: 'pipe', cwd: folder });
  let screen = '';
  let asked = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    // Answers each prompt once it is on the screen, as a person would.
    const promptsShown = (screen.match(/assphrase[^\n]*?: /g) ?? []).length;
    while (asked < promptsShown && asked < lines.length) child.stdin.write(`${lines[asked++]}\r`);
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, screen }));
  });
}

test('on a terminal: share asks twice, reveal asks first, and neither echoes the passphrase', async () => {
  const file = path.join(folder, 'note.txt');
  await writeFile(file, TEXT);
  const shared = await onTerminal(['share', file, '--ask-passphrase'], ['typed pass', 'typed pass']);
  expect(shared.code).toBe(0);
  expect(shared.screen).toMatch('Passphrase for the secret (the reader will need it): ');
  expect(shared.screen).toMatch('Repeat the passphrase: ');
  expect(shared.screen).not.toContain('typed pass');
  const link = /(https?:\/\/\S+#p\.[A-Za-z0-9_-]{43})/.exec(shared.screen)?.[1] ?? '';
  expect(link).toMatch(GATED_LINK);

  const revealed = await onTerminal(['reveal', link, '-o', path.join(folder, 'out.txt')], ['typed pass']);
  expect(revealed.code).toBe(0);
  expect(revealed.screen).toMatch('This secret is protected by a passphrase. Passphrase: ');
  expect(revealed.screen).not.toContain('typed pass');
});

test('on a terminal: passphrases that differ share nothing', async () => {
  const file = path.join(folder, 'note.txt');
  await writeFile(file, TEXT);
  const shared = await onTerminal(['share', file, '--ask-passphrase'], ['one', 'two']);
  expect(shared.code).toBe(1);
  expect(shared.screen).toMatch('the passphrases do not match: nothing was shared');
});

test('the service never sees the passphrase: a gated secret’s claim without the CLI gets 403', async () => {
  const link = await shareGated('pw');
  const id = new URL(link).pathname.split('/').pop();
  const response = await api('GET', `/secrets/${id}`, { key: apiKey });
  expect({ status: response.status, left: response.headers[GATE.attemptsLeftHeader] }).toEqual({ status: 403, left: '5' });
});
