/** The pages' languages: a BCP 47 tag each and its name in itself, as the language switch lists it. */
export const LANGUAGES = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  ja: '日本語',
  'zh-CN': '简体中文',
} as const;

export type Language = keyof typeof LANGUAGES;

/** English is the reference catalogue, bundled into each page; the others load when chosen. */
export const REFERENCE_LANGUAGE = 'en' satisfies Language;

export const isLanguage = (tag: string): tag is Language => Object.hasOwn(LANGUAGES, tag);

/** The first of the browser's preferred `tags` that names one of ours, exactly or by primary language; else English. */
export function preferredLanguage(tags: readonly string[]): Language {
  const byPrimary = new Map<string, Language>(Object.keys(LANGUAGES).map((tag) => [primary(tag), tag as Language]));
  for (const tag of tags) {
    const exact = Object.keys(LANGUAGES).find((ours) => ours.toLowerCase() === tag.toLowerCase());
    if (exact !== undefined && isLanguage(exact)) return exact;
    const sameLanguage = byPrimary.get(primary(tag));
    if (sameLanguage !== undefined) return sameLanguage;
  }
  return REFERENCE_LANGUAGE;
}

const primary = (tag: string): string => tag.split('-')[0]?.toLowerCase() ?? '';
