import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository stands on its own: no tracked file links or cites a path outside it (the
 * contract lives in docs/, not in a folder beside a checkout), and every relative link of the
 * Markdown documents leads to a file that exists, and to a heading of it where it names one.
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

/**
 * The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as
 * hyphens (github-slugger's rule for the ASCII headings these docs write; a dependency for one
 * line of a test would weigh more than the line).
 */
function anchorsOf(text: string): Set<string> {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  const headings = [...prose.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => match[1] ?? '');
  return new Set(
    headings.map((heading) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

test('no tracked file cites a path outside the repository', () => {
  const citing = texts.flatMap((file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    return text.split('\n').flatMap((line, index) => (OUTSIDE.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
  });
  expect(citing).toEqual([]);
});

test('no Markdown link climbs out of the repository, and every relative one leads to a file and heading', () => {
  const broken = markdown.flatMap((file) =>
    linksOf(readFileSync(path.join(ROOT, file), 'utf8'))
      .filter(isRelative)
      .flatMap((target) => {
        const resolved = path.resolve(ROOT, path.dirname(file), decodeURIComponent(target.split('#')[0] ?? ''));
        if (path.relative(ROOT, resolved).startsWith('..')) return [`${file}: ${target} leaves the repository`];
        if (!existsSync(resolved)) return [`${file}: ${target} does not exist`];
        const anchor = target.split('#')[1];
        if (anchor === undefined || !resolved.endsWith('.md')) return [];
        return anchorsOf(readFileSync(resolved, 'utf8')).has(anchor) ? [] : [`${file}: ${target} names no heading`];
      }),
  );
  expect(broken).toEqual([]);
});

test('the checks can fail', () => {
  expect(anchorsOf('# 5. Passphrase (envelope version 2)\n## Who may create: open or signed-in')).toEqual(
    new Set(['5-passphrase-envelope-version-2', 'who-may-create-open-or-signed-in']),
  );
  expect(linksOf('see [the spec](../../elsewhere/spec.md) and ![a](b.png)\n```\n[x](in-code)\n```')).toEqual(['../../elsewhere/spec.md', 'b.png']);
  expect(OUTSIDE.some((pattern) => pattern.test(`[c](${['..', 'shared'].join('/')}/spec/contract.md)`))).toBe(true);
  expect(OUTSIDE.some((pattern) => pattern.test(`read ${['', 'work', 'x'].join('/')}`))).toBe(true);
});
