import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import mime from 'mime';
import { MAX_BODY_BYTES } from '../../../contract/limits';
import { OCTET_STREAM, type FileContent } from '../client';
import { InputError, PayloadTooLargeError } from '../errors';
import { decodeUtf8 } from '../utf8';

/** What `share` encrypts: a file (its bytes, name and media type) or standard input as text. */

export async function readFileContent(path: string): Promise<FileContent> {
  let size: number;
  try {
    const stats = await stat(path);
    if (!stats.isFile()) throw new InputError(`${path} is not a file`);
    size = stats.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`);
  }
  // Refused before reading: such a file cannot fit however it is encoded. Closer cases are the library's to measure.
  if (size > MAX_BODY_BYTES) {
    throw new PayloadTooLargeError(
      `too large: ${size} bytes; the service's request limit is ${MAX_BODY_BYTES} bytes (5 MiB), about 3.9 MB of content`,
    );
  }
  return { name: basename(path), bytes: new Uint8Array(await readFile(path)), mimetype: mime.getType(path) ?? OCTET_STREAM };
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

export async function readStdinText(stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Promise<string> {
  if (stdin.isTTY) stderr.write('Type or paste the secret, then press Ctrl-D on a line of its own:\n');
  const bytes = await readAll(stdin);
  if (bytes.length === 0) throw new InputError('nothing to share: standard input is empty (to share a file: onetime share FILE)');
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new InputError('standard input is not UTF-8 text: share it as a file (onetime share FILE)');
  return text;
}
