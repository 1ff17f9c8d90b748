import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_PATH } from '#scripts/openapi';

/** Redocly's recommended rules on docs/openapi.json: a second linter beside Spectral (spectral.test.ts). */

const ROOT = path.resolve(__dirname, '../../..');
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

test('docs/openapi.json has no Redocly finding, not even a warning', async () => {
  // Redocly exits 1 when it finds an error; its findings are on stdout either way. Run on this
  // process's Node (the repository's), without telemetry or an update check.
  const run = promisify(execFile)(process.execPath, [REDOCLY, 'lint', path.relative(ROOT, OPENAPI_PATH), '--extends=recommended', '--format=json'], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  });
  const { stdout } = await run.catch((failure: Error & { stdout?: string; stderr?: string }) => {
    if (!failure.stdout) throw new Error(`redocly failed: ${failure.stderr ?? failure.message}`);
    return { stdout: failure.stdout };
  });
  const { problems } = JSON.parse(stdout) as { problems: Problem[] };
  expect(problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`)).toEqual([]);
});
