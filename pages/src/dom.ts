import type { Phrase } from './i18n/format';
import { setText } from './i18n/page-language';

/** The few DOM helpers both pages use: elements by id, showing and hiding, copying. */

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
