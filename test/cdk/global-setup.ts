import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SHARED_SYNTHESIS_ENV, synthesize } from './support/synth';

/** Synthesizes the default app once for every cdk test file of the run (see sharedSynthesis). */
export default function globalSetup(): void {
  const { stackName, template } = synthesize();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-test-'));
  const file = path.join(directory, 'synthesis.json');
  fs.writeFileSync(file, JSON.stringify({ stackName, template: template.toJSON() }));
  process.env[SHARED_SYNTHESIS_ENV] = file;
}
