import { toBase64Url } from '#client/base64';
import { importKey, seal } from '#client/envelope';
import { MAX_FILENAME_BYTES, fitFilename } from '#client/filename';
import { FILENAME_MAX_LENGTH } from '#contract/limits';

const bytes = (text: string): number => new TextEncoder().encode(text).length;

test('162 bytes of name fill the 255-character field exactly once encrypted', async () => {
  expect(MAX_FILENAME_BYTES).toBe(162);
  const key = await importKey(new Uint8Array(32));
  const sent = toBase64Url(await seal(key, new Uint8Array(MAX_FILENAME_BYTES), 'filename'));
  expect(sent.length).toBeLessThanOrEqual(FILENAME_MAX_LENGTH);
  expect(toBase64Url(await seal(key, new Uint8Array(MAX_FILENAME_BYTES + 1), 'filename')).length).toBeGreaterThan(FILENAME_MAX_LENGTH);
});

test('a name that fits is kept as it is', () => {
  const name = `${'n'.repeat(158)}.pdf`;
  expect(fitFilename(name)).toBe(name);
});

test('a long name is shortened, keeping its extension', () => {
  const fitted = fitFilename(`${'n'.repeat(300)}.tar.gz`);
  expect(fitted).toBe(`${'n'.repeat(159)}.gz`);
  expect(bytes(fitted)).toBe(MAX_FILENAME_BYTES);
});

test('multi-byte characters are never cut in half', () => {
  const fitted = fitFilename(`${'é'.repeat(100)}${'🔑'.repeat(50)}.txt`);
  expect(bytes(fitted)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
  expect(fitted.endsWith('.txt')).toBe(true);
  expect(fitted).not.toContain('\uFFFD');
  expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(fitted)).toBe(false);
});

test('an "extension" too long to be one is cut like the rest', () => {
  const fitted = fitFilename(`a.${'x'.repeat(300)}`);
  expect(bytes(fitted)).toBe(MAX_FILENAME_BYTES);
  expect(fitted.startsWith('a.xxx')).toBe(true);
});
