import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RUN_DIRECTORY_ENV, SHARED_SYNTHESIS_ENV, synthesize } from './support/synth';

/**
 * Makes the run's directory, where every cloud assembly of the run is written (assemblyDirectory),
 * and synthesizes the default app once for every cdk test file of the run (see sharedSynthesis).
 */
export default function globalSetup(): void {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-test-'));
  process.env[RUN_DIRECTORY_ENV] = directory;
  const { stackName, template } = synthesize();
  const file = path.join(directory, 'synthesis.json');
  fs.writeFileSync(file, JSON.stringify({ stackName, template: template.toJSON() }));
  process.env[SHARED_SYNTHESIS_ENV] = file;
}
