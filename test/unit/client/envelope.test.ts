import { createDecipheriv } from 'node:crypto';
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from '#client/base64';
import { AAD, importKey, open, seal, sealWithIv } from '#client/envelope';
import { LinkError } from '#client/errors';
import { VECTORS, hex, plaintextOf, type Vector } from './vectors';

const encode = (vector: Vector, envelope: Uint8Array): string => (vector.field === 'data' ? toBase64(envelope) : toBase64Url(envelope));
const decode = (vector: Vector): Uint8Array => (vector.field === 'data' ? fromBase64(vector.sent) : (fromBase64Url(vector.sent) ?? new Uint8Array()));
const key = () => importKey(hex(VECTORS.keyHex));

describe.each(VECTORS.vectors.map((vector) => [vector.name, vector] as const))('test vector: %s', (_, vector) => {
  test('the fixture is AES-256-GCM as another implementation (node:crypto) reads it', () => {
    const envelope = Buffer.from(decode(vector));
    expect(envelope[0]).toBe(1);
    expect(envelope.subarray(1, 13).toString('hex')).toBe(vector.ivHex);
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(VECTORS.keyHex, 'hex'), envelope.subarray(1, 13));
    decipher.setAAD(Buffer.from(vector.aad, 'ascii'));
    decipher.setAuthTag(envelope.subarray(-16));
    const plaintext = Buffer.concat([decipher.update(envelope.subarray(13, -16)), decipher.final()]);
    expect(new Uint8Array(plaintext)).toEqual(plaintextOf(vector));
  });

  test('the library seals the plaintext to exactly the fixture', async () => {
    expect(AAD[vector.field]).toBe(vector.aad);
    const envelope = await sealWithIv(await key(), hex(vector.ivHex), plaintextOf(vector), vector.field);
    expect(encode(vector, envelope)).toBe(vector.sent);
  });

  test('the library opens the fixture', async () => {
    expect(await open(await key(), decode(vector), vector.field)).toEqual(plaintextOf(vector));
  });
});

describe('open refuses, as the link being wrong or the secret damaged', () => {
  const [text] = VECTORS.vectors;
  if (!text) throw new Error('no vectors');
  const envelope = () => decode(text);

  test.each([
    ['a flipped ciphertext bit', (bytes: Uint8Array) => (bytes[14] = (bytes[14] ?? 0) ^ 1)],
    ['a flipped tag bit', (bytes: Uint8Array) => (bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1)],
    ['version 2', (bytes: Uint8Array) => (bytes[0] = 2)],
  ])('%s', async (_, damage) => {
    const bytes = envelope();
    damage(bytes);
    await expect(open(await key(), bytes, 'data')).rejects.toMatchObject({ kind: 'link', reason: 'undecryptable' });
  });

  test('a data envelope read as a filename (the additional data differs)', async () => {
    await expect(open(await key(), envelope(), 'filename')).rejects.toBeInstanceOf(LinkError);
  });

  test('another key', async () => {
    await expect(open(await importKey(new Uint8Array(32)), envelope(), 'data')).rejects.toBeInstanceOf(LinkError);
  });

  test('an envelope too short to hold an iv and a tag', async () => {
    await expect(open(await key(), envelope().subarray(0, 28), 'data')).rejects.toBeInstanceOf(LinkError);
  });
});

test('each envelope has a fresh iv', async () => {
  const plaintext = new TextEncoder().encode('same');
  const [first, second] = await Promise.all([seal(await key(), plaintext, 'data'), seal(await key(), plaintext, 'data')]);
  expect(toBase64(first.subarray(1, 13))).not.toBe(toBase64(second.subarray(1, 13)));
});

test('base64 of megabytes matches Buffer’s, both ways', () => {
  const bytes = new Uint8Array(3_000_001).map((_, index) => (index * 7919) & 0xff);
  const text = toBase64(bytes);
  expect(text).toBe(Buffer.from(bytes).toString('base64'));
  // Compared as Buffers: Jest's toEqual walks megabytes of elements one by one, for seconds.
  expect(Buffer.from(fromBase64(text)).equals(bytes)).toBe(true);
  expect(toBase64Url(bytes.subarray(0, 1000))).toBe(Buffer.from(bytes.subarray(0, 1000)).toString('base64url'));
});
