import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI_LOOPBACK_REDIRECT } from '#contract/create-access';
import { ERRORS } from '#contract/errors';
import { api } from '#test/support/api';
import { testEnv } from '#test/support/environment';
import { startLocalServer, type LocalServer } from '#test/support/local-server';
import { confirmDevice, CookieJar, passLogin, TEST_USER } from '#test/support/sign-in';
import { onetime } from '../support/cli';

/**
 * `onetime login` against a signed-in local mode and its real OpenID provider: the device
 * authorization grant (the person confirms the code in a browser, here by HTTP as the browser
 * would), the token kept 0600 in the config directory, and `onetime key create` minting a key
 * that creates with it, and one that only reveals without it.
 */

const ONETIME = path.resolve(__dirname, '../../../node_modules/.bin/onetime');

let server: LocalServer;
let issuer: string;
let configHome: string;

beforeAll(async () => {
  server = await startLocalServer({ DYNAMODB_ENDPOINT: testEnv('dynamodbEndpoint'), CREATE_ACCESS: 'signed-in', LOCAL_REQUEST_LOG: 'off' });
  issuer = /OpenID provider at (\S+),/.exec(server.output())?.[1] ?? '';
});
afterAll(() => server?.stop());
beforeEach(async () => {
  configHome = await mkdtemp(path.join(tmpdir(), 'onetime-config-'));
});
afterEach(() => rm(configHome, { recursive: true, force: true }));

const cliEnv = (): Record<string, string> => ({ ONETIME_API_URL: server.baseUrl, XDG_CONFIG_HOME: configHome });

/** The person's part of the device grant: the link and code the CLI printed, confirmed in a browser. */
async function confirmCode(told: string): Promise<void> {
  const url = /open (\S+) and confirm the code (\S+)/.exec(told)?.[1] ?? '';
  expect(await confirmDevice(issuer, url)).toContain('You are signed in on your device');
}

/** The person's part of the loopback flow: the link opened, signed in, and the browser sent back to the CLI. */
async function followLink(told: string): Promise<void> {
  const url = /open (\S+)\n/.exec(told)?.[1] ?? '';
  const journey = await passLogin(new CookieJar(), issuer, url, TEST_USER);
  if (!('left' in journey)) throw new Error(`the provider did not send the browser back: ${journey.page.slice(0, 200)}`);
  expect(journey.left.startsWith(`${CLI_LOOPBACK_REDIRECT}?`)).toBe(true);
  const back = await fetch(journey.left);
  expect(await back.text()).toBe('onetime: you may close this tab and go back to the terminal.\n');
}

/** Runs `onetime login`, and does the person's part once it says where to go. */
async function logIn(args: string[] = [], personsPart = confirmCode): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(ONETIME, ['login', ...args], { env: { ...process.env, ...cliEnv() }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const told = new Promise<string>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/To sign in, open .*\n/.test(stderr)) resolve(stderr);
    });
  });
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  await personsPart(await Promise.race([told, closed.then(() => Promise.reject(new Error(`onetime login ended: ${stderr}`)))]));
  return { code: await closed, stdout, stderr };
}

const createSecretWith = (key: string) => api('POST', '/secrets', { baseUrl: server.baseUrl, key, json: { data: 'aGVsbG8=' } });

test('login keeps the token for its owner alone; key create then mints a key that creates', async () => {
  const loggedIn = await logIn();
  expect(loggedIn.code).toBe(0);
  expect(loggedIn.stdout).toMatch(/^signed in until \d{4}-\d\d-\d\dT[\d:.]+Z; onetime key create now mints a key that creates\n$/);

  const file = path.join(configHome, 'onetime', 'sign-in.json');
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);

  const created = await onetime(['key', 'create'], { env: cliEnv() });
  expect(created.code).toBe(0);
  const key = created.stdout.toString().trim();
  expect((await createSecretWith(key)).status).toBe(201);

  expect((await onetime(['logout'], { env: cliEnv() })).stdout.toString()).toBe('signed out\n');
  const revealOnly = (await onetime(['key', 'create'], { env: cliEnv() })).stdout.toString().trim();
  const refused = await createSecretWith(revealOnly);
  expect(refused.status).toBe(403);
  expect(refused.body).toEqual({ error: ERRORS.revealOnlyKey });
});

test('login --browser: the authorization code comes back to the loopback port; the key then creates', async () => {
  const loggedIn = await logIn(['--browser'], followLink);
  expect({ code: loggedIn.code, stdout: loggedIn.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(/^signed in until /) });
  const key = (await onetime(['key', 'create'], { env: cliEnv() })).stdout.toString().trim();
  expect((await createSecretWith(key)).status).toBe(201);
});

test('a sign-in that has ended is told, not spent on a key that could only reveal', async () => {
  await mkdir(path.join(configHome, 'onetime'), { recursive: true });
  await writeFile(
    path.join(configHome, 'onetime', 'sign-in.json'),
    JSON.stringify({ site: new URL(server.baseUrl).origin, issuer, idToken: 'x.y.z', expires: Date.now() - 1000 }),
    { mode: 0o600 },
  );
  const created = await onetime(['key', 'create'], { env: cliEnv() });
  expect({ code: created.code, stderr: created.stderr, stdout: created.stdout.toString() }).toEqual({
    code: 1,
    stderr: 'onetime: your sign-in has ended: run onetime login again\n',
    stdout: '',
  });
});

test('login on a service anyone may create on says so', async () => {
  const result = await onetime(['login'], { env: { XDG_CONFIG_HOME: configHome } });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/does not need signing in: any key it mints may create/);
});
