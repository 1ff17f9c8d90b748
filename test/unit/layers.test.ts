import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The layering as .dependency-cruiser.cjs states it: contract/ stands alone and the clients import
 * only it, never the server; rules/ imports nothing of ours
 * but definitions/, stores never call use-cases, routes reach stores only through use-cases,
 * no cycles. dependency-cruiser runs as its CLI: it ships ESM only, which Jest's CommonJS loader
 * cannot import.
 */

const ROOT = path.resolve(__dirname, '../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

interface CruiseResult {
  modules: { source: string }[];
  summary: { violations: Violation[] };
}

interface ForbiddenRule {
  name: string;
  from: { path?: string | string[] };
  to: { path?: string | string[] };
}

const pathsOf = (rule: ForbiddenRule['from']): string[] => ([] as string[]).concat(rule.path ?? []);

function cruise(): CruiseResult {
  const bin = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
  const run = spawnSync(process.execPath, [bin, 'lambdas', 'contract', 'client/src', 'pages/src', '--config', CONFIG, '--output-type', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  if (!run.stdout.trim().startsWith('{')) throw new Error(`dependency-cruiser did not report: ${run.stderr}`);
  return JSON.parse(run.stdout) as CruiseResult;
}

const result = cruise();
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the dependency-cruiser config is CommonJS, outside any tsconfig
const { forbidden } = require(CONFIG) as { forbidden: ForbiddenRule[] };

test('no module imports across the layers the wrong way', () => {
  const readable = result.summary.violations.map((violation) => ({
    rule: violation.rule.name,
    import: `${violation.from} → ${violation.to}`,
    ...(violation.cycle ? { cycle: violation.cycle.map((step) => step.name).join(' → ') } : {}),
  }));
  expect(readable).toEqual([]);
});

test('every rule applies to some module, so that a mistyped path cannot leave it checking nothing', () => {
  const sources = result.modules.map((module) => module.source);
  const idle = forbidden.filter((rule) => {
    return !pathsOf(rule.from).every((pattern) => sources.some((source) => new RegExp(pattern).test(source)));
  });
  expect(idle.map((rule) => rule.name)).toEqual([]);
});

test('every folder of lambdas/, sub-folders too, has its place in the layers: some rule names it', () => {
  const patterns = forbidden
    .flatMap((rule) => [...pathsOf(rule.from), ...pathsOf(rule.to)])
    .filter((pattern) => pattern !== '^lambdas/')
    .map((pattern) => new RegExp(pattern));
  const folders = readdirSync(path.join(ROOT, 'lambdas'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  expect(folders.length).toBeGreaterThan(0);
  const unplaced = folders.filter((folder) => !patterns.some((pattern) => pattern.test(`${folder}/module.ts`)));
  expect(unplaced).toEqual([]);
});
