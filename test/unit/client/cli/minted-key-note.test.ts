import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS, type Io } from '#client/cli/commands';
import { describeFailure } from '#client/cli/exit-codes';
import { ERRORS } from '#contract/errors';
import { fakeFetch, failureOf, type Scripted } from '../fake-fetch';

/**
 * `onetime share` without ONETIME_API_KEY mints a one-off key: its note may say only what the
 * server says of POST /keys's per-address limit, which a deployment sets (keysPerIpPerHour).
 */

// `onetime login`'s module loads oauth4webapi, ESM only; share does not sign in.
jest.mock('#client/cli/sign-in', () => ({}));

const ID = 'J8k051Rl3B2N5nxEX7V-gg';
const MINTED: Scripted = { status: 201, body: { key: `svc_${'b'.repeat(32)}`, expires: 1, webhookSecret: `whsec_${'c'.repeat(32)}` } };
const CREATED: Scripted = { status: 201, body: { id: ID, url: `http://localhost:3000/${ID}` } };

function shareWithoutKey(...script: Scripted[]): { run: Promise<void>; stderr: string[] } {
  const stderr: string[] = [];
  const write = (text: string) => stderr.push(text) > 0;
  const io = { stdin: process.stdin, stdout: { write: () => true }, stderr: { isTTY: false, write } } as unknown as Io;
  const file = join(tmpdir(), `onetime-note-${process.pid}.txt`);
  writeFileSync(file, 'hello');
  jest.spyOn(globalThis, 'fetch').mockImplementation(fakeFetch(...script).fetch);
  const share = COMMANDS.share;
  if (!share) throw new Error('no share command');
  const run = share.run({ values: {}, positionals: [file], settings: { apiUrl: 'http://localhost:3000/api/v1', apiKey: undefined }, io });
  return { run, stderr };
}

afterEach(() => jest.restoreAllMocks());

test('the note names no limit of its own: the deployment sets it', async () => {
  const { run, stderr } = shareWithoutKey(MINTED, CREATED);
  await run;
  const note = stderr.join('');
  expect(note).toContain('used a one-off key from POST /keys');
  expect(note).not.toMatch(/\d/);
});

test("over the limit, the server's own words are shown", async () => {
  const { run } = shareWithoutKey({ status: 429, body: { error: ERRORS.keyCreationLimited }, headers: { 'retry-after': '3600' } });
  expect(describeFailure(await failureOf(run)).line).toContain(ERRORS.keyCreationLimited);
});
