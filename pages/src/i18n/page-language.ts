import english from './messages/en.json';
import { formatMessage, type Catalogue, type MessageKey, type Phrase } from './format';
import { LANGUAGES, REFERENCE_LANGUAGE, isLanguage, preferredLanguage, type Language } from './languages';

/** The page's language; every text goes through here as a Phrase, so that a switch rewrites what is shown. */

const STORED_LANGUAGE = 'onetime.language';

let language: Language = REFERENCE_LANGUAGE;
let catalogue: Catalogue = english;
/** Bumped by each switch, so that a slow catalogue that arrives after a later choice is dropped. */
let choice = 0;

const texts = new Map<Element, Phrase>();
const attributes = new Map<Element, Map<string, Phrase>>();
const renderers: (() => void)[] = [];

export const currentLanguage = (): Language => language;

/** `target` shows `phrase`, now and in any language chosen later; nothing when undefined. */
export function setText(target: Element, phrase: Phrase | undefined): void {
  if (phrase === undefined) {
    texts.delete(target);
    target.textContent = '';
  } else {
    texts.set(target, phrase);
    target.textContent = formatMessage(catalogue, language, phrase);
  }
}

/** `target`'s attribute `name` (an aria-label, say) says `phrase`, now and in any language chosen later. */
export function setAttribute(target: Element, name: string, phrase: Phrase): void {
  const own = attributes.get(target) ?? new Map<string, Phrase>();
  own.set(name, phrase);
  attributes.set(target, own);
  target.setAttribute(name, formatMessage(catalogue, language, phrase));
}

/** Runs `render` now and after every change of language: for texts that Intl writes without a message. */
export function onLanguageChange(render: () => void): void {
  renderers.push(render);
  render();
}

function renderAll(): void {
  for (const [target, phrase] of texts) target.textContent = formatMessage(catalogue, language, phrase);
  for (const [target, own] of attributes) for (const [name, phrase] of own) target.setAttribute(name, formatMessage(catalogue, language, phrase));
  for (const render of renderers) render();
}

/** A catalogue other than English is a chunk of its own (esbuild splits the dynamic import), loaded only when chosen. */
async function load(tag: Language): Promise<Catalogue> {
  if (tag === REFERENCE_LANGUAGE) return english;
  const module = (await import(`./messages/${tag}.json`)) as { default: Catalogue };
  return module.default;
}

async function use(tag: Language): Promise<void> {
  const mine = ++choice;
  // Unreachable (offline, a deploy under way): the page stays in the language it shows.
  const loaded = await load(tag).catch(() => undefined);
  if (loaded === undefined || mine !== choice) return;
  language = tag;
  catalogue = loaded;
  document.documentElement.lang = tag;
  renderAll();
}

function stored(): string | null {
  try {
    return localStorage.getItem(STORED_LANGUAGE);
  } catch {
    return null; // storage blocked: the browser's preference decides every time
  }
}

function remember(tag: Language): void {
  try {
    localStorage.setItem(STORED_LANGUAGE, tag);
  } catch {
    // Storage blocked: the choice lasts as long as this page.
  }
}

/** The language switch: each language named in itself, so that a reader finds theirs in any. */
function fillSwitch(select: HTMLSelectElement, chosen: Language): void {
  for (const [tag, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, tag, tag === chosen, tag === chosen);
    option.lang = tag;
    select.add(option);
  }
  select.addEventListener('change', () => {
    if (!isLanguage(select.value)) return;
    remember(select.value);
    void use(select.value);
  });
}

/** Binds the page's static texts (`data-i18n`) and its switch, then shows the remembered or preferred language. */
export function startLanguage(): Promise<void> {
  for (const target of document.querySelectorAll<HTMLElement>('[data-i18n]')) texts.set(target, { key: target.dataset.i18n as MessageKey });
  const remembered = stored();
  const chosen = remembered !== null && isLanguage(remembered) ? remembered : preferredLanguage(navigator.languages);
  const select = document.getElementById('language');
  if (select instanceof HTMLSelectElement) {
    fillSwitch(select, chosen);
    if (select.parentElement) select.parentElement.hidden = false;
  }
  // Unseen (site.css) until another language's words are in, so that the page does not move.
  const root = document.documentElement;
  root.classList.toggle('translating', chosen !== REFERENCE_LANGUAGE);
  return use(chosen).finally(() => root.classList.remove('translating'));
}
