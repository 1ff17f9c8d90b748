import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareDataDir } from '#local/settings';

/** DATA_DIR as a user writes it: relative to where `npm start` was typed, created when missing. */

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'data-dir-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

test('unset or empty: data stays in memory', () => {
  expect(prepareDataDir(undefined)).toBeUndefined();
  expect(prepareDataDir('')).toBeUndefined();
});

test('a relative path is taken from the folder npm was called from (INIT_CWD), and created', () => {
  const dataDir = prepareDataDir('data/local', { INIT_CWD: folder });
  expect(dataDir).toBe(path.join(folder, 'data/local'));
  expect(statSync(dataDir as string).isDirectory()).toBe(true);
});

test('an absolute path that exists is kept as it is', () => {
  expect(prepareDataDir(folder, {})).toBe(folder);
});

test('a path that cannot be a folder says so, and what to set', () => {
  writeFileSync(path.join(folder, 'taken'), '');
  expect(() => prepareDataDir('taken/data', { INIT_CWD: folder })).toThrow(
    `DATA_DIR=taken/data: cannot create the folder ${path.join(folder, 'taken/data')} (ENOTDIR); set DATA_DIR to a folder you can write to`,
  );
});
