import { createECDH } from 'node:crypto';
import { isP256PublicKey } from '#contract/p256';

/** The public keys POST /requests takes, against node:crypto's own points. */

const point = (): Buffer => {
  const pair = createECDH('prime256v1');
  return pair.generateKeys();
};

test('points node:crypto makes are keys', () => {
  for (let i = 0; i < 50; i++) expect(isP256PublicKey(point().toString('base64url'))).toBe(true);
});

test.each([
  [
    'a point off the curve',
    () => {
      const bytes = point();
      bytes[64] = bytes[64]! ^ 1;
      return bytes;
    },
  ],
  ['a compressed point', () => Buffer.from(createECDH('prime256v1').generateKeys('hex', 'compressed'), 'hex')],
  ['the point at infinity', () => Buffer.from([0])],
  ['a coordinate above p', () => Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 0xff)])],
])('%s is not', (_, make) => {
  expect(isP256PublicKey(make().toString('base64url'))).toBe(false);
});

test('only the canonical, unpadded base64url of a point is', () => {
  const encoded = point().toString('base64url');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const lastBitFlipped = encoded.slice(0, -1) + alphabet[alphabet.indexOf(encoded.slice(-1)) ^ 1];
  expect(isP256PublicKey(lastBitFlipped)).toBe(false);
  expect(isP256PublicKey(`${encoded}=`)).toBe(false);
});
