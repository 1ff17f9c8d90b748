import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OnetimeClient } from '#client/client';
import { api, createKey } from '#test/support/api';
import { testEnv } from '#test/support/environment';
import { linkFrom, onetime } from '../support/cli';

/** The library and the CLI open each other's links: one envelope, whichever made it. */

let apiKey: string;
let client: OnetimeClient;
let folder: string;
beforeAll(async () => {
  apiKey = (await createKey()).key;
  client = new OnetimeClient({ baseUrl: testEnv('baseUrl'), apiKey });
});
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onetime-trip-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

test('library → CLI: a file comes back under its decrypted name', async () => {
  const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
  const shared = await client.share({ name: 'Quarterly report – Q3.pdf', bytes, mimetype: 'application/pdf' }, { views: 1 });
  const result = await onetime(['reveal', shared.link], { apiKey, cwd: folder });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout.toString()).toBe('Quarterly report – Q3.pdf\n');
  expect(new Uint8Array(await readFile(path.join(folder, 'Quarterly report – Q3.pdf')))).toEqual(bytes);
});

test('library → CLI: text', async () => {
  const shared = await client.share('from the library\n');
  expect((await onetime(['reveal', shared.link], { apiKey })).stdout.toString()).toBe('from the library\n');
});

test('CLI → library: a file keeps its name and media type', async () => {
  const source = path.join(folder, 'photo.png');
  await writeFile(source, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const link = linkFrom(await onetime(['share', source, '--views', '2'], { apiKey }));
  expect(await client.reveal(link)).toEqual({
    type: 'file',
    name: 'photo.png',
    mimetype: 'image/png',
    bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    remaining: 1,
  });
});

test('CLI → library: text', async () => {
  const link = linkFrom(await onetime(['share'], { apiKey, stdin: 'from the CLI\n' }));
  expect(await client.reveal(link)).toEqual({ type: 'text', text: 'from the CLI\n', remaining: 0 });
  await expect(client.reveal(link)).rejects.toMatchObject({ kind: 'gone' });
});

test('the service stores ciphertext only: the name is no longer readable in what a claim returns', async () => {
  const shared = await client.share({ name: 'passwords.kdbx', bytes: new Uint8Array([1]) }, { views: 2 });
  const claimed = await api<{ filename: string; mimetype: string }>('GET', `/secrets/${shared.id}`, { key: apiKey });
  expect(claimed.body.filename).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(claimed.raw).not.toContain('passwords');
  expect(claimed.body.mimetype).toBe('application/octet-stream');
});

test('the library manages keys and revokes secrets', async () => {
  const created = await client.createKey();
  const own = new OnetimeClient({ baseUrl: testEnv('baseUrl'), apiKey: created.key });
  await own.updateWebhook('https://hooks.example.com/lib');
  expect(await own.showKey()).toMatchObject({ webhook: 'https://hooks.example.com/lib', webhookSecret: created.webhookSecret });
  const shared = await own.share('x');
  expect(await own.status(shared.link)).toMatchObject({ state: 'active', views: 1, remaining: 1, viewed: [] });
  await expect(client.status(shared.id)).rejects.toMatchObject({ kind: 'gone' });
  await own.revoke(shared.link);
  await expect(own.reveal(shared.link)).rejects.toMatchObject({ kind: 'gone' });
  await own.revokeKey();
  await expect(own.showKey()).rejects.toMatchObject({ kind: 'service', status: 401 });
});
