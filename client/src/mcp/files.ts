import { lstat, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError } from '../errors';

/** Where revealed and received secrets go: a new file, never one that exists, readable by its owner alone. */

/** The absolute path `path` names, refused when taken or its folder is missing; checked before any view is claimed. */
export async function newFilePath(path: string): Promise<string> {
  const absolute = resolve(path);
  const taken = await lstat(absolute).then(
    () => true,
    () => false,
  );
  if (taken) throw new InputError(`${absolute} exists: name a file that does not exist yet`);
  const folder = await stat(dirname(absolute)).catch(() => undefined);
  if (!folder?.isDirectory()) throw new InputError(`${dirname(absolute)} is not a folder`);
  return absolute;
}

/** Creates `path` (0600) with `bytes`; a failed write leaves no partial file behind. */
export async function writeNewFile(path: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    // EEXIST: someone else made it since the check; it is theirs, not ours to remove.
    if (code !== 'EEXIST') await rm(path, { force: true });
    throw new InputError(`cannot write ${path}: ${code}`);
  }
}
