import * as fs from 'node:fs';
import { RUN_DIRECTORY_ENV } from './support/synth';

/** Removes the run's directory: the shared synthesis and every cloud assembly the tests wrote. */
export default function globalTeardown(): void {
  const directory = process.env[RUN_DIRECTORY_ENV];
  if (directory) fs.rmSync(directory, { recursive: true, force: true });
}
