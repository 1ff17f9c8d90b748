import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERRORS } from '#contract/errors';
import { MAX_BODY_BYTES } from '#contract/limits';
import { signatureHeader } from '#lambdas/webhooks/signature';
import { createKey } from '#test/support/api';
import { eventually } from '#test/support/eventually';
import { linkFrom, onetime } from '../support/cli';

/** docs/client.md §3, as a user sees it: stdout, stderr and exit codes of the linked `onetime`. */

/** A leading BOM is content too: it must survive both ways. */
const TEXT = '\uFEFFGrüße, 世界 🔑\n\nline after an empty one\n\n';
const GONE = 'onetime: the secret does not exist or is gone\n';

let apiKey: string;
let folder: string;
beforeAll(async () => {
  apiKey = (await createKey()).key;
});
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onetime-cli-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const share = async (args: string[], stdin?: string | Buffer): Promise<string> =>
  linkFrom(await onetime(['share', ...args], { apiKey, ...(stdin === undefined ? {} : { stdin }) }));

const withAnotherKey = (link: string): string => link.replace(/#.*$/, `#${'A'.repeat(42)}E`);

describe('share and reveal text', () => {
  test('unicode, empty lines and trailing newlines come back byte for byte, once per view', async () => {
    const link = await share(['--views', '2'], TEXT);
    for (let view = 0; view < 2; view++) {
      const revealed = await onetime(['reveal', link], { apiKey });
      expect({ code: revealed.code, stderr: revealed.stderr }).toEqual({ code: 0, stderr: '' });
      expect(revealed.stdout.equals(Buffer.from(TEXT))).toBe(true);
    }
    expect(await onetime(['reveal', link], { apiKey })).toMatchObject({ code: 2, stderr: GONE, stdout: Buffer.alloc(0) });
  });

  test('--json prints id, url, link and expires', async () => {
    const before = Date.now();
    const result = await onetime(['share', '--json', '--ttl', '7d'], { apiKey, stdin: 'x' });
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout.toString()) as Record<string, unknown>;
    expect(Object.keys(printed).sort()).toEqual(['expires', 'id', 'link', 'url']);
    expect(printed.url).toMatch(new RegExp(`/${printed.id as string}$`));
    expect(printed.link).toMatch(new RegExp(`^${printed.url as string}#[A-Za-z0-9_-]{43}$`));
    expect(printed.expires).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(printed.expires).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
  });

  test('reveal -o saves text to a file and names it', async () => {
    const link = await share([], TEXT);
    const target = path.join(folder, 'note.txt');
    const result = await onetime(['reveal', link, '-o', target], { apiKey });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.toString()).toBe(`${target}\n`);
    expect(await readFile(target, 'utf8')).toBe(TEXT);
  });

  test('standard input that is not UTF-8 is refused: it would not come back byte for byte', async () => {
    expect(await onetime(['share'], { apiKey, stdin: Buffer.from([0x66, 0xff, 0xfe, 0x0a]) })).toMatchObject({
      code: 1,
      stderr: 'onetime: standard input is not UTF-8 text: share it as a file (onetime share FILE)\n',
    });
  });

  test('empty standard input is refused', async () => {
    expect(await onetime(['share'], { apiKey, stdin: '' })).toMatchObject({
      code: 1,
      stderr: 'onetime: nothing to share: standard input is empty (to share a file: onetime share FILE)\n',
    });
  });
});

describe('share and reveal files', () => {
  test('an empty file comes back empty, under its name, in the current folder', async () => {
    const source = path.join(folder, 'empty.cfg');
    await writeFile(source, '');
    const link = await share([source]);
    const into = path.join(folder, 'into');
    await mkdir(into);
    const result = await onetime(['reveal', link], { apiKey, cwd: into });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.toString()).toBe('empty.cfg\n');
    expect(await readFile(path.join(into, 'empty.cfg'))).toHaveLength(0);
  });

  test('a 3.9 MB binary file comes back byte for byte, with no progress bar when stderr is no terminal', async () => {
    const bytes = Buffer.alloc(3_900_000);
    for (let index = 0; index < bytes.length; index++) bytes[index] = (index * 7919 + (index >> 12)) & 0xff;
    const source = path.join(folder, 'archive.bin');
    await writeFile(source, bytes);
    const link = await share([source]);
    const target = path.join(folder, 'copy.bin');
    const result = await onetime(['reveal', link, '-o', target], { apiKey });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect((await readFile(target)).equals(bytes)).toBe(true);
  });

  test('a taken name is never overwritten: the copy gets a number, or --force overwrites it', async () => {
    const source = path.join(folder, 'report.txt');
    await writeFile(source, 'new');
    const first = await share([source, '--views', '2']);
    const numbered = await onetime(['reveal', first], { apiKey, cwd: folder });
    expect(numbered.stdout.toString()).toBe('report (1).txt\n');
    expect(await readFile(source, 'utf8')).toBe('new');

    const explicit = path.join(folder, 'report (1).txt');
    const refused = await onetime(['reveal', first, '-o', explicit], { apiKey });
    expect(refused).toMatchObject({ code: 1, stderr: `onetime: ${explicit} exists: use --force to overwrite it\n` });
    // Refused before the claim: the second view is still there.
    await writeFile(explicit, 'old');
    expect(await onetime(['reveal', first, '-o', explicit, '--force'], { apiKey })).toMatchObject({ code: 0 });
    expect(await readFile(explicit, 'utf8')).toBe('new');
  });

  test('the limit is named, and content one byte over it is refused before uploading', async () => {
    const probe = path.join(folder, 'limit.bin');
    await writeFile(probe, Buffer.alloc(MAX_BODY_BYTES));
    const measured = await onetime(['share', probe], { apiKey });
    expect(measured.code).toBe(1);
    const fits = Number(/at most (\d+) fit in the service's request limit of 5242880 bytes \(5 MiB\)\n$/.exec(measured.stderr)?.[1]);
    expect(fits).toBeGreaterThan(3_900_000);

    await writeFile(probe, Buffer.alloc(fits + 1, 7));
    expect(await onetime(['share', probe], { apiKey })).toMatchObject({
      code: 1,
      stderr: `onetime: too large: ${fits + 1} bytes; at most ${fits} fit in the service's request limit of 5242880 bytes (5 MiB)\n`,
    });
    await writeFile(probe, Buffer.alloc(fits, 7));
    const link = await share([probe]);
    const target = path.join(folder, 'back.bin');
    expect(await onetime(['reveal', link, '-o', target], { apiKey })).toMatchObject({ code: 0 });
    expect(await readFile(target)).toHaveLength(fits);
  });
});

describe('links that cannot open a secret', () => {
  test('a wrong key: exit 1, nothing of the plaintext, no key in the message', async () => {
    const link = await share([], 'top secret');
    const wrong = withAnotherKey(link);
    const result = await onetime(['reveal', wrong], { apiKey });
    expect(result).toMatchObject({ code: 1, stderr: 'onetime: cannot decrypt the secret: the link is wrong or the secret is damaged\n' });
    expect(result.stdout).toHaveLength(0);
    expect(result.stderr).not.toContain(wrong.split('#')[1]);
  });

  test('no fragment: exit 1 and no view consumed', async () => {
    const link = await share([], 'still here');
    const result = await onetime(['reveal', link.split('#')[0] ?? ''], { apiKey });
    expect(result).toMatchObject({
      code: 1,
      stderr: 'onetime: invalid link: the key after "#" is missing (was the end of the link cut off?)\n',
    });
    expect((await onetime(['reveal', link], { apiKey })).stdout.toString()).toBe('still here');
  });

  test('a consumed secret: exit 2', async () => {
    const link = await share([], 'once');
    await onetime(['reveal', link], { apiKey });
    expect(await onetime(['reveal', link], { apiKey })).toMatchObject({ code: 2, stderr: GONE });
  });
});

describe('revoke', () => {
  test('by link, then the secret is gone; by another key it is not found', async () => {
    const link = await share([], 'revoke me');
    const stranger = (await createKey()).key;
    expect(await onetime(['revoke', link], { apiKey: stranger })).toMatchObject({ code: 2, stderr: GONE });
    const revoked = await onetime(['revoke', link], { apiKey });
    expect({ code: revoked.code, stdout: revoked.stdout.toString() }).toEqual({ code: 0, stdout: 'revoked\n' });
    expect(await onetime(['reveal', link], { apiKey })).toMatchObject({ code: 2 });
  });

  test('without an API key: exit 1, no request', async () => {
    expect(await onetime(['revoke', 'J8k051Rl3B2N5nxEX7V-gg'])).toMatchObject({
      code: 1,
      stderr: 'onetime: no API key: set ONETIME_API_KEY or pass --api-key\n',
    });
  });
});

describe('status', () => {
  test('an id that begins with "-" (one in 64 does) is an id, not an option', async () => {
    // No secret has this id: the service is asked, and says so.
    expect(await onetime(['status', '-aB3dEfGhIjKlMnOpQrStUv', '--json'], { apiKey })).toMatchObject({ code: 2, stderr: GONE });
  });

  test('by link or id: the receipt in words, --json for the body; no view used; another key: gone', async () => {
    const shared = JSON.parse((await onetime(['share', '--json', '--views', '2'], { apiKey, stdin: 'watch me' })).stdout.toString()) as {
      id: string;
      link: string;
    };
    const before = await onetime(['status', shared.link], { apiKey });
    expect({ code: before.code, stderr: before.stderr }).toEqual({ code: 0, stderr: '' });
    expect(before.stdout.toString()).toMatch(/^active: 2 of 2 views left\ncreated \S+Z\nexpires \S+Z\n$/);
    expect((await onetime(['reveal', shared.link], { apiKey })).code).toBe(0);
    const json = await onetime(['status', shared.id, '--json'], { apiKey });
    expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: '' });
    const receipt = JSON.parse(json.stdout.toString()) as Record<string, unknown>;
    expect(receipt).toMatchObject({ state: 'active', views: 2, remaining: 1 });
    expect(receipt.viewed).toHaveLength(1);
    expect((await onetime(['status', shared.link], { apiKey })).stdout.toString()).toMatch(/^active: 1 of 2 views left\n(.*\n){2}viewed {2}\S+Z\n$/);
    const stranger = (await createKey()).key;
    expect(await onetime(['status', shared.link], { apiKey: stranger })).toMatchObject({ code: 2, stderr: GONE });
    await onetime(['revoke', shared.link], { apiKey });
    // Revoked: the receipt outlives the data (the stream consumer writes it within moments).
    await eventually(async () => {
      expect((await onetime(['status', shared.id], { apiKey })).stdout.toString()).toMatch(/^revoked: 1 of 2 views left\n/);
    }, 20_000);
  });
});

describe('keys', () => {
  test('create, show, set and remove the webhook, revoke', async () => {
    const created = await onetime(['key', 'create']);
    expect(created.code).toBe(0);
    const key = created.stdout.toString().trim();
    expect(created.stdout.toString()).toMatch(/^svc_[A-Za-z0-9]{32}\n$/);
    expect(created.stderr).toMatch(/^webhook secret: whsec_\w{32,}\n$/);

    const shown = await onetime(['key', 'show'], { apiKey: key });
    expect(JSON.parse(shown.stdout.toString())).toMatchObject({ hint: `svc_****${key.slice(-4)}` });

    const set = await onetime(['key', 'webhook', 'https://hooks.example.com/onetime'], { apiKey: key });
    expect(set.stdout.toString()).toBe('updated\n');
    expect(JSON.parse((await onetime(['key', 'show'], { apiKey: key })).stdout.toString())).toMatchObject({
      webhook: 'https://hooks.example.com/onetime',
    });
    expect((await onetime(['key', 'webhook', ''], { apiKey: key })).stdout.toString()).toBe('updated\n');
    expect(JSON.parse((await onetime(['key', 'show'], { apiKey: key })).stdout.toString())).not.toHaveProperty('webhook');

    expect((await onetime(['key', 'revoke'], { apiKey: key })).stdout.toString()).toBe('revoked\n');
    const after = await onetime(['key', 'show'], { apiKey: key });
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/^onetime: invalid API key \(HTTP 401, request \S+\)\n$/);
    expect(after.stderr).not.toContain(key);
  });

  test('the service’s refusal is exit 3 with its message', async () => {
    const result = await onetime(['key', 'webhook', 'http://hooks.example.com/x'], { apiKey });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(new RegExp(`^onetime: ${ERRORS.webhook.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(HTTP 400, request \\S+\\)\\n$`));
  });
});

test('without an API key, share and reveal mint one and say so', async () => {
  const shared = await onetime(['share'], { stdin: 'minted' });
  expect(shared.code).toBe(0);
  expect(shared.stderr).toMatch(/^note: no API key set \(ONETIME_API_KEY\); .*this secret cannot be revoked\n$/);
  const revealed = await onetime(['reveal', shared.stdout.toString().trim()]);
  expect(revealed.stdout.toString()).toBe('minted');
});

describe('webhook verify', () => {
  const secret = `whsec_${'s'.repeat(32)}`;
  const body = '{"event":"secret.created","timestamp":1,"data":{"id":"J8k051Rl3B2N5nxEX7V-gg"}}';

  test('a delivery signed now is valid', async () => {
    const result = await onetime(['webhook', 'verify', '--secret', secret, '--signature', signatureHeader(body, secret, Date.now())], {
      stdin: body,
    });
    expect({ code: result.code, stdout: result.stdout.toString() }).toEqual({ code: 0, stdout: 'valid\n' });
  });

  test.each([
    ['a changed body', body.replace('created', 'viewed'), Date.now()],
    ['a signature 6 minutes old', body, Date.now() - 360_000],
  ])('%s is not: exit 1', async (_, received, signedAt) => {
    const result = await onetime(['webhook', 'verify', '--secret', secret, '--signature', signatureHeader(body, secret, signedAt)], {
      stdin: received,
    });
    expect(result).toMatchObject({ code: 1, stderr: 'onetime: invalid signature, or signed more than 300000 ms ago\n' });
    expect(result.stderr).not.toContain(secret);
  });
});

describe('usage and network errors', () => {
  test.each([
    [[], 1],
    [['frob'], 1],
    [['share', '--ttl', '2d'], 1],
    [['share', '--views', '2.5'], 1],
    [['reveal'], 1],
    [['reveal', 'x', '--ttl', '1h'], 1],
  ])('onetime %j: exit %d, one line', async (args, code) => {
    const result = await onetime(args, { apiKey, stdin: 'x' });
    expect(result.code).toBe(code);
    if (args.length > 0) expect(result.stderr).toMatch(/^onetime: [^\n]+\n$/);
  });

  test('a wrong ttl gets the service’s own message', async () => {
    expect((await onetime(['share', '--ttl', '2d'], { apiKey, stdin: 'x' })).stderr).toBe(`onetime: ${ERRORS.ttl}\n`);
  });

  test('no service listening: exit 4, one line naming the address', async () => {
    const port = await closedPort();
    const result = await onetime(['share'], { apiKey, stdin: 'x', env: { ONETIME_API_URL: `http://127.0.0.1:${port}/api/v1` } });
    expect(result).toMatchObject({ code: 4, stderr: `onetime: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)\n` });
  });
});

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
