import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * `npm run fuzz` runs the fuzz test alone: Jest lists the files the script's own arguments select
 * (a path after `--selectProjects` would be taken for a project's name, and every file run).
 */

const ROOT = path.resolve(__dirname, '../..');
const JEST = path.join(ROOT, 'node_modules/jest/bin/jest.js');

test('the fuzz script selects test/integration/fuzz.test.ts and nothing else', async () => {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  // `NAME=value ... jest <arguments>`: the arguments, with --listTests put first so no `--` swallows it.
  const words = (scripts.fuzz ?? '').split(/\s+/).filter((word) => !/^[A-Z_]+=/.test(word));
  expect(words[0]).toBe('jest');
  const { stdout } = await promisify(execFile)(process.execPath, [JEST, '--listTests', '--json', ...words.slice(1)], { cwd: ROOT });
  expect((JSON.parse(stdout) as string[]).map((file) => path.relative(ROOT, file))).toEqual(['test/integration/fuzz.test.ts']);
});
