import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OnetimeClient } from '#client/client';
import { api, createKey } from '#test/support/api';
import { testEnv } from '#test/support/environment';
import vectors from '../../../client/request-test-vectors.json';
import { onetime } from '../support/cli';

/** Secret requests through the library and the `onetime` CLI, against local mode. */

const URL_LINE = /^\s*(https?:\/\/\S+)$/;
const REQUEST_LINK = /\/r\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}$/;
const RECEIVE_LINK = /\/r\/[A-Za-z0-9_-]{22}\/receive#[A-Za-z0-9_-]{43}(\.svc_[A-Za-z0-9]{32})?$/;

/** The two links `onetime request` prints, in order: to send, to keep. */
function linksOf(stdout: Buffer): { requestLink: string; receiveLink: string; lines: string[] } {
  const lines = stdout.toString().trim().split('\n');
  const [requestLink = '', receiveLink = ''] = lines.map((line) => URL_LINE.exec(line)?.[1]).filter((link): link is string => link !== undefined);
  return { requestLink, receiveLink, lines };
}

let apiKey: string;
let folder: string;
beforeAll(async () => {
  apiKey = (await createKey()).key;
});
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onetime-requests-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

test('onetime request prints the link to send and the link to keep; onetime receive shows open, then reveals once', async () => {
  const requested = await onetime(['request', '--ttl', '1h', '--note', 'the staging DB password'], { apiKey });
  expect(requested.code).toBe(0);
  const { requestLink, receiveLink, lines } = linksOf(requested.stdout);
  expect(lines[0]).toMatch(/^Send this link/);
  expect(lines[2]).toMatch(/^Keep this link/);
  expect(requestLink).toMatch(REQUEST_LINK);
  // With a key of one's own, the receive link carries only the private key.
  expect(receiveLink).toMatch(/\/receive#[A-Za-z0-9_-]{43}$/);

  const waiting = await onetime(['receive', receiveLink], { apiKey });
  expect(waiting).toMatchObject({ code: 0, stderr: expect.stringMatching(/^open: not answered yet; the request expires at \d{4}-/) });
  expect(waiting.stdout.toString()).toBe('');

  // The sender: another key, text on standard input; the note is shown as public.
  const sent = await onetime(['fulfil', requestLink], { apiKey: (await createKey()).key, stdin: 'hunter2\n' });
  expect(sent).toMatchObject({ code: 0, stderr: 'note from the requester (public): the staging DB password\n' });
  expect(sent.stdout.toString()).toBe('sent: only the requester can read it, once\n');
  expect(await onetime(['fulfil', requestLink], { stdin: 'again' })).toMatchObject({
    code: 2,
    stderr: 'onetime: the request was already fulfilled\n',
  });

  const revealed = await onetime(['receive', receiveLink], { apiKey });
  expect(revealed).toMatchObject({ code: 0, stderr: '' });
  expect(revealed.stdout.toString()).toBe('hunter2\n');
  expect(await onetime(['receive', receiveLink], { apiKey })).toMatchObject({
    code: 2,
    stderr: 'onetime: the request does not exist or has expired\n',
  });
});

test('without ONETIME_API_KEY, the receive link carries the minted key; a file answer is saved under its name', async () => {
  const requested = await onetime(['request']);
  expect(requested.code).toBe(0);
  expect(requested.stderr).toMatch(/one-off key.*the link to keep carries it/);
  const { requestLink, receiveLink } = linksOf(requested.stdout);
  expect(receiveLink).toMatch(/\/receive#[A-Za-z0-9_-]{43}\.svc_[A-Za-z0-9]{32}$/);

  const source = path.join(folder, 'id_ed25519');
  await writeFile(source, Buffer.from([0, 1, 2, 255]));
  expect((await onetime(['fulfil', requestLink, source])).code).toBe(0);
  const inbox = path.join(folder, 'inbox');
  await mkdir(inbox);
  const saved = await onetime(['receive', receiveLink, '-o', inbox]);
  expect(saved).toMatchObject({ code: 0 });
  expect(saved.stdout.toString()).toBe(`${path.join(inbox, 'id_ed25519')}\n`);
  expect(new Uint8Array(await readFile(path.join(inbox, 'id_ed25519')))).toEqual(new Uint8Array([0, 1, 2, 255]));
});

test('a request link whose fingerprint does not match is refused before anything is sent', async () => {
  const { requestLink } = linksOf((await onetime(['request'], { apiKey })).stdout);
  const altered = requestLink.replace(/#.*$/, `#${'A'.repeat(42)}E`);
  const refused = await onetime(['fulfil', altered], { apiKey, stdin: 'not for you' });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^onetime: refusing to encrypt: the request's public key does not match the link's fingerprint/);
  // The request is still open for the real link.
  expect((await onetime(['fulfil', requestLink], { apiKey, stdin: 'ok' })).code).toBe(0);
});

test('the library: request, openRequest (note), fulfil a file, requestStatus, receive once', async () => {
  const requester = new OnetimeClient({ baseUrl: testEnv('baseUrl'), apiKey });
  const sender = new OnetimeClient({ baseUrl: testEnv('baseUrl') });
  const requested = await requester.request({ note: 'your SSH key', ttl: '6h' });
  expect(requested.requestLink).toMatch(REQUEST_LINK);
  expect(requested.receiveLink).toMatch(RECEIVE_LINK);
  expect(await sender.openRequest(requested.requestLink)).toMatchObject({ note: 'your SSH key', expires: requested.expires });
  expect(await requester.requestStatus(requested.receiveLink)).toMatchObject({ state: 'open', note: 'your SSH key' });

  const bytes = new Uint8Array([9, 8, 7]);
  await sender.fulfil(requested.requestLink, { name: 'Quarterly report – Q3.pdf', bytes, mimetype: 'application/pdf' });
  expect(await requester.requestStatus(requested.receiveLink)).toMatchObject({ state: 'fulfilled', fulfilledAt: expect.any(Number) });
  // What the service holds is ciphertext, names included.
  const stored = await api<{ filename: string }>('GET', `/requests/${requested.id}/status`, { key: apiKey });
  expect(stored.raw).not.toContain('Quarterly');

  expect(await requester.receive(requested.receiveLink)).toEqual({
    state: 'fulfilled',
    note: 'your SSH key',
    content: { type: 'file', name: 'Quarterly report – Q3.pdf', mimetype: 'application/pdf', bytes },
  });
  await expect(requester.receive(requested.receiveLink)).rejects.toMatchObject({ kind: 'gone' });
});

test.each(vectors.vectors.filter((vector) => vector.field === 'data').map((vector) => [vector.name, vector] as const))(
  'onetime receive opens the node:crypto vector "%s"',
  async (_, vector) => {
    const { id } = (await api<{ id: string }>('POST', '/requests', { key: apiKey, json: { publicKey: vectors.recipientPublicKeyBase64Url } })).body;
    const filename = vectors.vectors.find((candidate) => candidate.field === 'filename');
    const file = vector.plaintextHex !== undefined && filename !== undefined;
    const answer = file ? { data: vector.sent, type: 'file', filename: filename.sent, mimetype: 'application/pdf' } : { data: vector.sent };
    expect((await api('POST', `/requests/${id}`, { key: apiKey, json: answer })).status).toBe(201);
    const receiveLink = `${testEnv('baseUrl').replace(/\/api\/v1$/, '')}/r/${id}/receive#${Buffer.from(vectors.recipientScalarHex, 'hex').toString('base64url')}`;
    const received = await onetime(['receive', receiveLink, ...(file ? ['-o', folder] : [])], { apiKey });
    expect(received).toMatchObject({ code: 0, stderr: '' });
    if (!file) {
      expect(received.stdout.toString()).toBe(vector.plaintextUtf8);
      return;
    }
    // The file answer comes back under the vector's decrypted filename.
    const saved = path.join(folder, filename.plaintextUtf8 ?? '');
    expect(received.stdout.toString()).toBe(`${saved}\n`);
    expect((await readFile(saved)).toString('hex')).toBe(vector.plaintextHex);
  },
);
