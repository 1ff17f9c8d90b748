import { fromBase64, fromBase64Url, toBase64, toBase64Url } from '#client/base64';
import { LinkError } from '#client/errors';
import { REQUEST_AAD, answerSealer, fingerprint, importPrivateKey, importPublicKey, openAnswer } from '#client/request-envelope';
import { makeReceiveLink, makeRequestLink, parseReceiveLink, parseRequestLink } from '#client/request-link';
import vectors from '../../../client/request-test-vectors.json';
import { renderVectors } from '#scripts/vectors';
import { hex, plaintextOf, type Vector } from './vectors';

/** client/request-test-vectors.json, made with node:crypto by scripts/vectors.ts, against the library. */

const VECTORS = vectors as Omit<typeof vectors, 'vectors'> & { vectors: Vector[] };
const recipientPoint = hex(VECTORS.recipientPublicKeyHex);
const [dataVectors, filenameVectors] = [VECTORS.vectors.filter((v) => v.field === 'data'), VECTORS.vectors.filter((v) => v.field === 'filename')];

async function fixedSealer() {
  const ephemeralPoint = hex(VECTORS.ephemeralPublicKeyHex);
  const pair = {
    privateKey: await importPrivateKey(hex(VECTORS.ephemeralScalarHex), ephemeralPoint),
    publicKey: await importPublicKey(ephemeralPoint),
  };
  return answerSealer(recipientPoint, pair);
}

const recipientKey = () => importPrivateKey(hex(VECTORS.recipientScalarHex), recipientPoint);
const firstData = (): Uint8Array => fromBase64(dataVectors[0]!.sent);

test('the committed vectors are what the generator (node:crypto only) writes', () => {
  expect(`${JSON.stringify(vectors, null, 2)}\n`).toBe(renderVectors('request-test-vectors.json'));
});

test('the fingerprint is SHA-256 of the raw public key, base64url, as the links carry it', async () => {
  expect(await fingerprint(recipientPoint)).toBe(VECTORS.fingerprint);
  expect(toBase64Url(recipientPoint)).toBe(VECTORS.recipientPublicKeyBase64Url);
  expect(makeRequestLink(VECTORS.links.url, VECTORS.fingerprint)).toBe(VECTORS.links.requestLink);
  expect(makeReceiveLink(VECTORS.links.url, hex(VECTORS.recipientScalarHex))).toBe(VECTORS.links.receiveLink);
  expect(parseRequestLink(VECTORS.links.requestLink)).toEqual({ id: 'J8k051Rl3B2N5nxEX7V-gg', fingerprint: VECTORS.fingerprint });
  expect(parseReceiveLink(VECTORS.links.receiveLink)).toEqual({ id: 'J8k051Rl3B2N5nxEX7V-gg', scalar: hex(VECTORS.recipientScalarHex) });
  expect(parseReceiveLink(VECTORS.links.receiveLinkWithKey)).toMatchObject({ apiKey: 'svc_MtlU4LDD5zURG2ZMmjOLfxoxppGCrQxz' });
});

describe.each(dataVectors.map((vector) => [vector.name, vector] as const))('data vector: %s', (_, vector) => {
  test('the library seals it to exactly the fixture', async () => {
    expect(REQUEST_AAD.data).toBe(vector.aad);
    expect(toBase64(await (await fixedSealer()).data(plaintextOf(vector), hex(vector.ivHex)))).toBe(vector.sent);
  });

  test('the library opens the fixture with the recipient key', async () => {
    expect((await openAnswer(await recipientKey(), recipientPoint, fromBase64(vector.sent))).data).toEqual(plaintextOf(vector));
  });
});

describe.each(filenameVectors.map((vector) => [vector.name, vector] as const))('filename vector: %s', (_, vector) => {
  test('sealed and opened under the key of the data envelope', async () => {
    expect(toBase64Url(await (await fixedSealer()).filename(plaintextOf(vector), hex(vector.ivHex)))).toBe(vector.sent);
    const opened = await openAnswer(await recipientKey(), recipientPoint, firstData());
    expect(await opened.filename(fromBase64Url(vector.sent)!)).toEqual(plaintextOf(vector));
  });
});

test('a fresh answer round-trips, and another key pair cannot open it', async () => {
  const sealer = await answerSealer(recipientPoint);
  const envelope = await sealer.data(new TextEncoder().encode('hi'));
  expect((await openAnswer(await recipientKey(), recipientPoint, envelope)).data).toEqual(new TextEncoder().encode('hi'));
  const other = hex(VECTORS.ephemeralPublicKeyHex);
  await expect(openAnswer(await importPrivateKey(hex(VECTORS.ephemeralScalarHex), other), other, envelope)).rejects.toBeInstanceOf(LinkError);
});

test.each([
  ['a flipped ciphertext bit', (bytes: Uint8Array) => (bytes[80] = (bytes[80] ?? 0) ^ 1)],
  ['another version byte', (bytes: Uint8Array) => (bytes[0] = 1)],
  ['a damaged ephemeral point', (bytes: Uint8Array) => (bytes[10] = (bytes[10] ?? 0) ^ 1)],
])('opening refuses %s as undecryptable', async (_, damage) => {
  const bytes = firstData();
  damage(bytes);
  await expect(openAnswer(await recipientKey(), recipientPoint, bytes)).rejects.toMatchObject({ kind: 'link', reason: 'undecryptable' });
});

test.each([
  ['no fingerprint', 'https://s.example/r/J8k051Rl3B2N5nxEX7V-gg'],
  ['a short fingerprint', 'https://s.example/r/J8k051Rl3B2N5nxEX7V-gg#abc'],
  ['a secret link', `https://s.example/J8k051Rl3B2N5nxEX7V-gg#${VECTORS.fingerprint}`],
])('a request link with %s is malformed', (_, link) => {
  expect(() => parseRequestLink(link)).toThrow(expect.objectContaining({ reason: 'malformed' }));
});

test.each([
  ['no private key', 'https://s.example/r/J8k051Rl3B2N5nxEX7V-gg/receive'],
  ['the request link', VECTORS.links.requestLink],
  ['a bad API key', `${VECTORS.links.receiveLink}.svc_short`],
])('a receive link with %s is malformed', (_, link) => {
  expect(() => parseReceiveLink(link)).toThrow(expect.objectContaining({ reason: 'malformed' }));
});
