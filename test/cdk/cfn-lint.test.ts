import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sharedSynthesis, synthesize } from './support/synth';

/**
 * cfn-lint (AWS's CloudFormation linter, a Python tool: not an npm package, so not installed by
 * `npm ci`) on the template of each access mode. Where it is not on PATH the tests are skipped,
 * and the run's output says so. Both templates go to one cfn-lint run: it spends most of its time
 * loading its rules (about 10 s here).
 */

/** Warnings the stack accepts, each with its reason; any other finding fails. */
const ACCEPTED_WARNINGS: Readonly<Record<string, string>> = {
  W3005:
    "CDK makes every function (the routes', the webhook pipeline's, BucketDeployment's) DependsOn its role beside the GetAtt of that role: the dependency is stated twice, which CloudFormation accepts",
};

interface Finding {
  Level: 'Error' | 'Warning' | 'Informational';
  Filename: string;
  Rule: { Id: string };
  Message: string;
  Location: { Path: (string | number)[] };
}

const cfnLintVersion = ((): string | undefined => {
  const run = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
})();

const describeWithCfnLint = cfnLintVersion ? describe : describe.skip;
const title = cfnLintVersion ? `${cfnLintVersion} on each mode's template` : "cfn-lint on each mode's template (SKIPPED: cfn-lint is not on PATH)";

// Jest does not list a file whose tests are all skipped: this line keeps the skip in the run's output.
if (!cfnLintVersion) {
  it('SKIPPED: cfn-lint is not on PATH, so no template was linted (pip install cfn-lint)', () => {
    console.warn('cfn-lint is not on PATH: the templates were not linted');
  });
}

describeWithCfnLint(title, () => {
  const MODES = ['open', 'signed-in'] as const;
  let findings: Finding[] = [];
  let directory = '';

  beforeAll(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'cfn-lint-'));
    const templates = { open: sharedSynthesis().template, 'signed-in': synthesize({ createAccess: 'signed-in' }).template };
    const files = MODES.map((mode) => {
      const file = path.join(directory, `${mode}.json`);
      writeFileSync(file, JSON.stringify(templates[mode].toJSON()));
      return file;
    });
    // Exits non-zero whenever it finds anything: its JSON is the verdict.
    const run = spawnSync('cfn-lint', ['--format', 'json', ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.error) throw run.error;
    try {
      findings = JSON.parse(run.stdout) as Finding[];
    } catch {
      throw new Error(`cfn-lint wrote no JSON (exit ${run.status}): ${run.stderr.slice(0, 2000)}`);
    }
  }, 180_000);

  afterAll(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const of = (mode: string) => findings.filter((finding) => path.basename(finding.Filename) === `${mode}.json`);
  const describeFinding = (finding: Finding) => `${finding.Rule.Id} at ${finding.Location.Path.join('/')}: ${finding.Message}`;

  it.each(MODES)('%s: no errors', (mode) => {
    expect(
      of(mode)
        .filter((finding) => finding.Level === 'Error')
        .map(describeFinding),
    ).toEqual([]);
  });

  it.each(MODES)('%s: no warning but those accepted with a reason', (mode) => {
    const unaccepted = of(mode).filter((finding) => finding.Level !== 'Error' && !(finding.Rule.Id in ACCEPTED_WARNINGS));
    expect(unaccepted.map(describeFinding)).toEqual([]);
  });
});
