import mime from 'mime';
import { FILENAME_MAX_LENGTH } from '../../contract/limits';
import { ENVELOPE_OVERHEAD } from './envelope';
import { utf8 } from './utf8';

/** A filename's envelope must fit 255 characters: longer names are shortened, keeping their extension (docs/client.md §2). */
export const MAX_FILENAME_BYTES = Math.floor((FILENAME_MAX_LENGTH * 3) / 4) - ENVELOPE_OVERHEAD;

/** Extensions longer than this are taken for part of the name, not kept whole. */
const MAX_EXTENSION_LENGTH = 16;

const byteLength = (text: string): number => utf8.encode(text).length;

/** The longest prefix of `text`, in whole code points, that fits in `budget` bytes of UTF-8. */
function truncateUtf8(text: string, budget: number): string {
  let kept = '';
  let used = 0;
  for (const codePoint of text) {
    const size = byteLength(codePoint);
    if (used + size > budget) break;
    kept += codePoint;
    used += size;
  }
  return kept;
}

export function fitFilename(name: string): string {
  if (byteLength(name) <= MAX_FILENAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= MAX_EXTENSION_LENGTH ? name.slice(dot) : '';
  const stem = name.slice(0, name.length - extension.length);
  return truncateUtf8(stem, MAX_FILENAME_BYTES - byteLength(extension)) + extension;
}

/** The sender's name made safe to save under: its last path segment, no controls; else one from the media type. */
export function safeName(name: string | undefined, mimetype: string): string {
  const cleaned =
    (name ?? '')
      .split(/[/\\]/)
      .pop()
      ?.replace(/[\u0000-\u001f\u007f]/g, '')
      .trim() ?? '';
  if (cleaned !== '' && cleaned !== '.' && cleaned !== '..') return cleaned;
  const extension = mime.getExtension(mimetype);
  return extension ? `secret.${extension}` : 'secret';
}
