import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_PATH } from '#scripts/openapi';

/**
 * Spectral's OpenAPI rules and OWASP's API Top 10 ruleset on docs/openapi.json, with the
 * repository's ruleset (.spectral.yaml: what is switched off or narrowed, and why).
 */

const ROOT = path.resolve(__dirname, '../../..');
const SPECTRAL = path.join(ROOT, 'node_modules/.bin/spectral');
const RULESET = path.join(ROOT, '.spectral.yaml');

interface Finding {
  code: string;
  message: string;
  path: string[];
}
async function lint(file: string): Promise<Finding[]> {
  // Spectral exits 1 when it finds an error; its findings are on stdout either way.
  const run = promisify(execFile)(SPECTRAL, ['lint', file, '--ruleset', RULESET, '--format', 'json', '--quiet'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  const { stdout } = await run.catch((failure: Error & { stdout?: string; stderr?: string }) => {
    if (!failure.stdout) throw new Error(`spectral failed: ${failure.stderr ?? failure.message}`);
    return { stdout: failure.stdout };
  });
  return JSON.parse(stdout) as Finding[];
}

const describeFinding = (finding: Finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`;

test('docs/openapi.json has no Spectral finding, not even a warning', async () => {
  const findings = await lint(path.relative(ROOT, OPENAPI_PATH));
  expect(findings.map(describeFinding)).toEqual([]);
});

test('the rate-limit rule of the ruleset fails a counted response without the headers', async () => {
  const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
    paths: Record<string, Record<string, { responses: Record<string, { headers: Record<string, unknown> }> }>>;
  };
  const answer = document.paths['/keys']?.get?.responses['200'];
  if (!answer) throw new Error('GET /keys has no 200 in docs/openapi.json');
  delete answer.headers['X-RateLimit-Remaining'];
  const directory = mkdtempSync(path.join(tmpdir(), 'spectral-'));
  const file = path.join(directory, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));

  try {
    const findings = (await lint(file)).filter((finding) => finding.code === 'onetime:rate-limit-headers');
    expect(findings.map((finding) => finding.path.join('.'))).toEqual(['paths./keys.get.responses.200.headers']);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
