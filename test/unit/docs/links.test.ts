import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository stands on its own: no tracked file links or cites a path outside it (the
 * contract lives in docs/, not in a folder beside a checkout), and every relative link of the
 * Markdown documents leads to a file that exists.
 */

const ROOT = path.resolve(__dirname, '../../..');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && existsSync(path.join(ROOT, file)));
const TEXT = /\.(ts|js|cjs|mjs|json|md|yaml|yml|py|go|html|css|sh|txt)$|^[^.]+$/;
const texts = tracked.filter((file) => TEXT.test(path.basename(file)) && !file.endsWith('package-lock.json'));
const markdown = tracked.filter((file) => file.endsWith('.md'));

// Spelled in pieces so that this file does not cite them itself.
const OUTSIDE = [new RegExp(['\\.\\.', 'shared'].join('/')), new RegExp(`(^|[\\s('"\`])${['', 'work', ''].join('/')}`)];

/** Markdown links and images outside fenced code: [text](target) and ![alt](target). */
function linksOf(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

const isRelative = (target: string) => !/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target);

test('no tracked file cites a path outside the repository', () => {
  const citing = texts.flatMap((file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    return text.split('\n').flatMap((line, index) => (OUTSIDE.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
  });
  expect(citing).toEqual([]);
});

test('no Markdown link climbs out of the repository, and every relative one leads to a file', () => {
  const broken = markdown.flatMap((file) =>
    linksOf(readFileSync(path.join(ROOT, file), 'utf8'))
      .filter(isRelative)
      .flatMap((target) => {
        const resolved = path.resolve(ROOT, path.dirname(file), decodeURIComponent(target.split('#')[0] ?? ''));
        if (path.relative(ROOT, resolved).startsWith('..')) return [`${file}: ${target} leaves the repository`];
        return existsSync(resolved) ? [] : [`${file}: ${target} does not exist`];
      }),
  );
  expect(broken).toEqual([]);
});

test('the checks can fail', () => {
  expect(linksOf('see [the spec](../../elsewhere/spec.md) and ![a](b.png)\n```\n[x](in-code)\n```')).toEqual(['../../elsewhere/spec.md', 'b.png']);
  expect(OUTSIDE.some((pattern) => pattern.test(`[c](${['..', 'shared'].join('/')}/spec/contract.md)`))).toBe(true);
  expect(OUTSIDE.some((pattern) => pattern.test(`read ${['', 'work', 'x'].join('/')}`))).toBe(true);
});
