import { openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ReadStream, WriteStream } from 'node:tty';
import { InputError } from '../errors';

/**
 * Where the CLI gets a passphrase: never from its arguments (they show in `ps` and in shell
 * history), but from a file (--passphrase-file) or from the terminal, asked for without echo.
 * The terminal is /dev/tty, not standard input, which may be carrying the secret being shared.
 */

/** The file's text, less one line ending at its end (what editors and `echo` add); nothing else is trimmed. */
export async function readPassphraseFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read the passphrase file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`);
  }
  const passphrase = text.replace(/\r?\n$/, '');
  if (passphrase === '') throw new InputError(`the passphrase file ${path} is empty`);
  return passphrase;
}

const ENTER = new Set(['\r', '\n']);
const CANCEL = new Set(['\u0003', '\u0004']); // Ctrl-C, Ctrl-D
const ERASE = new Set(['\u007f', '\b']);

/**
 * One line typed on the terminal, not echoed. Hand-written: Node's readline echoes what is typed,
 * and muting it means patching its private output method.
 */
async function askHidden(prompt: string): Promise<string> {
  let input: ReadStream;
  let output: WriteStream;
  try {
    input = new ReadStream(openSync('/dev/tty', 'r'));
    output = new WriteStream(openSync('/dev/tty', 'w'));
  } catch {
    throw new InputError('no terminal to ask for the passphrase on: use --passphrase-file PATH');
  }
  // No echo from here on, before the prompt invites typing.
  input.setRawMode(true);
  output.write(prompt);
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      input.on('data', (chunk: Buffer) => {
        for (const character of chunk.toString('utf8')) {
          if (ENTER.has(character)) return resolve(typed);
          if (CANCEL.has(character)) return reject(new InputError('cancelled: no passphrase given'));
          if (ERASE.has(character)) typed = [...typed].slice(0, -1).join('');
          else typed += character;
        }
      });
      input.once('error', () => reject(new InputError('could not read the passphrase from the terminal')));
    });
  } finally {
    input.setRawMode(false);
    output.write('\n');
    // Each stream owns its descriptor and closes it.
    input.destroy();
    output.destroy();
  }
}

/** The passphrase to open a gated link: from the file, or asked for once. */
export async function passphraseToReveal(file: string | undefined): Promise<string> {
  if (file !== undefined) return readPassphraseFile(file);
  const passphrase = await askHidden('This secret is protected by a passphrase. Passphrase: ');
  if (passphrase === '') throw new InputError('the passphrase is empty');
  return passphrase;
}

/** The passphrase to gate a new secret: from the file, or asked for twice, so that a typo cannot lock the reader out. */
export async function passphraseToShare(file: string | undefined): Promise<string> {
  if (file !== undefined) return readPassphraseFile(file);
  const passphrase = await askHidden('Passphrase for the secret (the reader will need it): ');
  if (passphrase === '') throw new InputError('the passphrase is empty');
  if ((await askHidden('Repeat the passphrase: ')) !== passphrase) throw new InputError('the passphrases do not match: nothing was shared');
  return passphrase;
}
