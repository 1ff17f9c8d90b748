import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * docs/security.md promises a test for each risk and each place data is kept. These checks keep
 * the promise from rotting: every test it names exists (and so runs in `npm test`), every test
 * title it quotes is in that file, and every OWASP row names at least one test.
 */
const ROOT = path.resolve(__dirname, '../../..');
const doc = readFileSync(path.join(ROOT, 'docs/security.md'), 'utf8');

/** A `test/…` path, optionally followed by ("a quoted title", "another") in the same cell. */
const REFERENCE = /`(test\/[^`]+)`(?: \(("[^)]*")\))?/g;
const references = [...doc.matchAll(REFERENCE)].map(([, file, quoted]) => ({
  file: file as string,
  titles: [...(quoted ?? '').matchAll(/"([^"]+)"/g)].map(([, title]) => title as string),
}));

const owaspRows = doc.split('\n').filter((line) => /^\| API\d+ /.test(line));

it('names the ten OWASP API Security risks, each with a test', () => {
  expect(owaspRows.map((row) => /^\| (API\d+) /.exec(row)?.[1])).toEqual(Array.from({ length: 10 }, (_, i) => `API${i + 1}`));
  expect(owaspRows.filter((row) => [...row.matchAll(REFERENCE)].length === 0)).toEqual([]);
});

it.each(references.map((reference) => [reference.file, reference] as const))('names %s, which exists', (_, { file, titles }) => {
  const full = path.join(ROOT, file);
  expect(existsSync(full)).toBe(true);
  if (statSync(full).isDirectory()) return;
  const source = readFileSync(full, 'utf8');
  expect(titles.filter((title) => !source.includes(title))).toEqual([]);
});
