import { stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { InputError } from '../errors';

/**
 * Where `reveal` saves: PATH (-o), or the decrypted name in PATH's folder or the current one.
 * Never overwrites without --force. A decrypted name is the sender's choice, so only its last
 * path segment is used, without control characters.
 */

export type Target = { kind: 'file'; path: string } | { kind: 'folder'; path: string };

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Checked before the claim, so that a refusal costs no view. */
export async function resolveTarget(output: string | undefined, force: boolean): Promise<Target> {
  if (output === undefined) return { kind: 'folder', path: '.' };
  if (await isFolder(output)) return { kind: 'folder', path: output };
  if (!force && (await exists(output))) throw new InputError(`${output} exists: use --force to overwrite it`);
  return { kind: 'file', path: output };
}

const MAX_NUMBERED = 1000;

/** Writes `bytes` into the target and answers the path written. In a folder a taken name becomes "name (1).ext", and so on. */
export async function writeRevealed(target: Target, name: string, bytes: Uint8Array, force: boolean): Promise<string> {
  const flag = force ? 'w' : 'wx';
  if (target.kind === 'file') {
    await writeFile(target.path, bytes, { flag });
    return target.path;
  }
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let number = 0; number < MAX_NUMBERED; number++) {
    const path = join(target.path, number === 0 ? name : `${stem} (${number})${extension}`);
    try {
      await writeFile(path, bytes, { flag });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new InputError(`cannot find a free name for ${name} in ${target.path}`);
}
