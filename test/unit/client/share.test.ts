import { OnetimeClient } from '#client/client';
import { PayloadTooLargeError } from '#client/errors';
import { MAX_BODY_BYTES } from '#contract/limits';
import { failureOf, fakeFetch, type Scripted } from './fake-fetch';

const BASE = 'http://localhost:3000/api/v1';
const ID = 'J8k051Rl3B2N5nxEX7V-gg';
const CREATED: Scripted = { status: 201, body: { id: ID, url: `http://localhost:3000/${ID}` } };
const MINTED: Scripted = { status: 201, body: { key: `svc_${'b'.repeat(32)}`, expires: 1, webhookSecret: `whsec_${'c'.repeat(32)}` } };

const file = (size: number) => ({ name: 'big.bin', bytes: new Uint8Array(size), mimetype: 'application/octet-stream' });

/** The largest file that fits, found by the library's own refusal message. */
async function largestFittingFile(): Promise<number> {
  const client = new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch: fakeFetch().fetch });
  const error = await failureOf(client.share(file(MAX_BODY_BYTES), { ttl: '1h', views: 2 }));
  if (!(error instanceof PayloadTooLargeError) || error.maxContentBytes === undefined) throw error;
  expect(error.limitBytes).toBe(MAX_BODY_BYTES);
  return error.maxContentBytes;
}

describe('the 5 MiB request limit is checked before uploading', () => {
  test('the largest file that fits makes a body within 3 bytes of the limit', async () => {
    const fits = await largestFittingFile();
    expect(fits).toBeGreaterThan(3_900_000);
    const { fetch, calls } = fakeFetch(CREATED);
    await new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch }).share(file(fits), { ttl: '1h', views: 2 });
    const sent = Buffer.byteLength(calls[0]?.body ?? '');
    expect(sent).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(sent).toBeGreaterThan(MAX_BODY_BYTES - 4);
  });

  test('one byte more is refused without a request, naming the limit', async () => {
    const fits = await largestFittingFile();
    const { fetch, calls } = fakeFetch();
    const error = await failureOf(new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch }).share(file(fits + 1), { ttl: '1h', views: 2 }));
    expect(error.message).toBe(`too large: ${fits + 1} bytes; at most ${fits} fit in the service's request limit of 5242880 bytes (5 MiB)`);
    expect(calls).toHaveLength(0);
  });
});

test('options the service would refuse are refused with its message, before minting a key', async () => {
  const { fetch, calls } = fakeFetch();
  const client = new OnetimeClient({ baseUrl: BASE, fetch });
  await expect(client.share('x', { views: 9 })).rejects.toMatchObject({ kind: 'input', message: 'views must be an integer from 1 to 5' });
  expect(calls).toHaveLength(0);
});

test('without an API key, share mints one, once, and uses it', async () => {
  const { fetch, calls } = fakeFetch(MINTED, CREATED, CREATED);
  const client = new OnetimeClient({ baseUrl: BASE, fetch });
  await client.share('one');
  await client.share('two');
  expect(client.mintedApiKey).toBe(true);
  expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([`POST ${BASE}/keys`, `POST ${BASE}/secrets`, `POST ${BASE}/secrets`]);
  expect(calls[1]?.headers.authorization).toBe(`Bearer svc_${'b'.repeat(32)}`);
});

test('a link without a valid key is refused before any request, not even one minting a key', async () => {
  const { fetch, calls } = fakeFetch();
  const client = new OnetimeClient({ baseUrl: BASE, fetch });
  await expect(client.reveal(`http://localhost:3000/${ID}`)).rejects.toMatchObject({ kind: 'link', reason: 'malformed' });
  expect(calls).toHaveLength(0);
});

test('key management without an API key is an input error, with no request', async () => {
  const { fetch, calls } = fakeFetch();
  const client = new OnetimeClient({ baseUrl: BASE, fetch });
  await expect(client.showKey()).rejects.toMatchObject({ kind: 'input' });
  await expect(client.revoke(ID)).rejects.toMatchObject({ kind: 'input' });
  expect(calls).toHaveLength(0);
});

test('expires is the ttl after the request was sent', async () => {
  const { fetch } = fakeFetch(CREATED);
  const before = Date.now();
  const shared = await new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch }).share('x', { ttl: '6h' });
  expect(shared.expires).toBeGreaterThanOrEqual(before + 6 * 3_600_000);
  expect(shared.expires).toBeLessThanOrEqual(Date.now() + 6 * 3_600_000);
  expect(shared.link).toMatch(new RegExp(`^http://localhost:3000/${ID}#[A-Za-z0-9_-]{43}$`));
});
