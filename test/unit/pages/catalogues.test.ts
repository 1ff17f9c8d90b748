import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { formatMessage, placeholdersOf, type Catalogue, type Message } from '../../../pages/src/i18n/format';
import { LANGUAGES, REFERENCE_LANGUAGE, preferredLanguage } from '../../../pages/src/i18n/languages';

/**
 * The pages' message catalogues (pages/src/i18n/messages/<language>.json) against the English
 * one: the same keys, the same placeholders, the plural forms each language needs, and every key
 * used by the pages. A string added to English and not to the others fails here.
 */

const PAGES = path.resolve(__dirname, '../../../pages');
const MESSAGES = path.join(PAGES, 'src/i18n/messages');

const catalogue = (language: string): Record<string, Message> =>
  JSON.parse(readFileSync(path.join(MESSAGES, `${language}.json`), 'utf8')) as Record<string, Message>;

const english = catalogue(REFERENCE_LANGUAGE);
const others = Object.keys(LANGUAGES).filter((language) => language !== REFERENCE_LANGUAGE);

/** The plural categories a count of views or items (0 to 1000) can select in `language`, and `other`, the fallback. */
function neededCategories(language: string): string[] {
  const rules = new Intl.PluralRules(language);
  const needed = new Set<string>(['other']);
  for (let count = 0; count <= 1000; count++) needed.add(rules.select(count));
  return [...needed].sort();
}

test('there is one catalogue per language of the switch, and no other', () => {
  const files = readdirSync(MESSAGES).map((file) => file.replace(/\.json$/, ''));
  expect(files.sort()).toEqual(Object.keys(LANGUAGES).sort());
});

describe.each(others)('%s', (language) => {
  const translated = catalogue(language);

  test('has every key English has, and no other', () => {
    expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
  });

  test('uses the same placeholders as English in every message', () => {
    const differing = Object.keys(english).filter((key) => {
      const theirs = translated[key];
      const ours = english[key];
      return theirs !== undefined && ours !== undefined && [...placeholdersOf(theirs)].sort().join() !== [...placeholdersOf(ours)].sort().join();
    });
    expect(differing).toEqual([]);
  });

  test('gives each plural message the forms its language needs, and none it does not have', () => {
    const allowed = new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];
    for (const [key, message] of Object.entries(translated)) {
      const isPlural = typeof message === 'object';
      expect({ key, isPlural }).toEqual({ key, isPlural: typeof english[key] === 'object' });
      if (typeof message !== 'object') continue;
      const forms = Object.keys(message);
      expect({ key, missing: neededCategories(language).filter((category) => !forms.includes(category)) }).toEqual({ key, missing: [] });
      expect({ key, unknown: forms.filter((form) => !allowed.includes(form)) }).toEqual({ key, unknown: [] });
    }
  });

  test('translates: no sentence is left in English', () => {
    // Short labels may legitimately match ("Link", "Copy" is not), so only sentences count.
    const untranslated = Object.keys(english).filter((key) => {
      const ours = english[key];
      return typeof ours === 'string' && ours.split(' ').length > 4 && translated[key] === ours;
    });
    expect(untranslated).toEqual([]);
  });
});

test('English gives each plural message its two forms', () => {
  for (const message of Object.values(english)) {
    if (typeof message === 'object') expect(Object.keys(message).sort()).toEqual(neededCategories('en'));
  }
});

test('every key the pages use is in English, and English has no key the pages do not use', () => {
  const sources = [
    ...readdirSync(path.join(PAGES, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(path.join(PAGES, 'src', file), 'utf8')),
    ...readdirSync(path.join(PAGES, 'static'))
      .filter((file) => file.endsWith('.html'))
      .map((file) => readFileSync(path.join(PAGES, 'static', file), 'utf8')),
    // The parts every page shares (the language switch among them), which the build writes.
    readFileSync(path.join(PAGES, 'build.ts'), 'utf8'),
  ].join('\n');
  const used = new Set([...sources.matchAll(/(?:key: |message: |data-i18n=")['"]?([a-z]+\.[A-Za-z.]+|noscript)['"]/g)].map((match) => match[1]));
  // A key chosen in a conditional expression: `{ key: cond ? 'a' : 'b' }`.
  for (const match of sources.matchAll(/key: [^?{}]+\? '([\w.]+)' : '([\w.]+)'/g)) used.add(match[1]).add(match[2]);
  expect([...used].filter((key) => key !== undefined && !(key in english)).sort()).toEqual([]);
  expect(
    Object.keys(english)
      .filter((key) => !used.has(key))
      .sort(),
  ).toEqual([]);
});

describe('formatting', () => {
  const polish = catalogue('pl') as Catalogue;
  const japanese = catalogue('ja') as Catalogue;

  test.each([
    [1, '1 wyświetlenie'],
    [3, '3 wyświetlenia'],
    [5, '5 wyświetleń'],
  ])('Polish chooses the form for %i', (count, expected) => {
    expect(formatMessage(polish, 'pl', { key: 'share.viewsOption', params: { count } })).toBe(expected);
  });

  test("sizes, times and other messages are written in the reader's language", () => {
    const germanText = formatMessage(catalogue('de') as Catalogue, 'de', { key: 'share.fileHint', params: { size: { bytes: 3_932_160 } } });
    expect(germanText).toBe('(bis etwa 3,9 MB)');
    const quoted = formatMessage(japanese, 'ja', { key: 'share.noViewOnOpen', params: { button: { message: 'reveal.button' } } });
    expect(quoted).toContain('「シークレットを表示」');
    const at = Date.UTC(2026, 10, 25, 15, 5);
    const time = formatMessage(english as Catalogue, 'en-GB', { key: 'error.rateLimited', params: { time: { time: at } } });
    expect(time).toMatch(/after \d\d:05\./);
  });
});

describe('the language a browser asks for', () => {
  test.each([
    [['de-AT', 'en'], 'de'],
    [['pt-PT'], 'pt-BR'],
    [['zh-TW', 'en'], 'zh-CN'],
    [['sv-SE', 'nl-BE', 'en'], 'nl'],
    [['sv-SE'], 'en'],
    [[], 'en'],
    [['JA'], 'ja'],
  ])('%j → %s', (tags, expected) => {
    expect(preferredLanguage(tags)).toBe(expected);
  });
});
