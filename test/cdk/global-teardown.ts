import * as fs from 'node:fs';
import * as path from 'node:path';
import { SHARED_SYNTHESIS_ENV } from './support/synth';

export default function globalTeardown(): void {
  const file = process.env[SHARED_SYNTHESIS_ENV];
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
