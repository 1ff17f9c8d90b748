/** The few DOM helpers both pages use: elements by id, showing and hiding, copying. */

export function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return found;
}

export function show(target: HTMLElement, visible = true): void {
  target.hidden = !visible;
}

/** Shows `message` in `target` (a live region), or hides it when there is none. */
export function say(target: HTMLElement, message: string | undefined): void {
  target.textContent = message ?? '';
  target.hidden = message === undefined;
}

/**
 * Copies `text` and says so in `status`. Where the clipboard is refused (an insecure origin, a
 * denied permission), `fallback` is selected so that the person can copy it by hand.
 */
export async function copy(text: string, status: HTMLElement, fallback?: HTMLInputElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    say(status, 'Copied.');
  } catch {
    fallback?.select();
    say(status, fallback ? 'Copying was refused: the link is selected, copy it with your keyboard.' : 'Copying was refused: select the text and copy it with your keyboard.');
  }
}
