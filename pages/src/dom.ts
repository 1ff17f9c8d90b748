import { safeName } from '../../client/src/index';
import type { Phrase } from './i18n/format';
import { setText } from './i18n/page-language';

/** The few DOM helpers the pages share: elements by id, showing and hiding, copying, a revealed secret. */

export function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return found;
}

export function show(target: HTMLElement, visible = true): void {
  target.hidden = !visible;
}

/** Shows `phrase` in `target` (a live region), or hides it when there is none. */
export function say(target: HTMLElement, phrase: Phrase | undefined): void {
  setText(target, phrase);
  target.hidden = phrase === undefined;
}

/** Copies `text` and says so in `status`; where the clipboard is refused, `fallback` is selected for copying by hand. */
export async function copy(text: string, status: HTMLElement, fallback?: HTMLInputElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    say(status, { key: 'copy.done' });
  } catch {
    fallback?.select();
    say(status, { key: fallback ? 'copy.refusedLink' : 'copy.refusedText' });
  }
}

/** Shows a revealed text (with its copy button) or file download in the page's result sections, and focuses it. */
export function showSecret(
  content: { type: 'text'; text: string } | { type: 'file'; name: string | undefined; mimetype: string; bytes: Uint8Array },
): void {
  if (content.type === 'text') {
    const text = element('secret-text', HTMLElement);
    text.textContent = content.text;
    show(element('text-result', HTMLElement));
    element('copy-text', HTMLButtonElement).addEventListener('click', () => void copy(content.text, element('copy-status', HTMLElement)));
    text.focus();
    return;
  }
  const name = safeName(content.name, content.mimetype);
  const anchor = element('secret-file', HTMLAnchorElement);
  // Always octet-stream: a blob of the sender's media type (text/html, say) would open on this origin.
  anchor.href = URL.createObjectURL(new Blob([content.bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }));
  anchor.download = name;
  setText(anchor, { key: 'reveal.download', params: { name, size: { bytes: content.bytes.length } } });
  show(element('file-result', HTMLElement));
  anchor.focus();
}
