import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Message } from '../../../pages/src/i18n/format';
import { LANGUAGES, REFERENCE_LANGUAGE } from '../../../pages/src/i18n/languages';

/**
 * The wording rules of docs/pages.md that a test can read: each language keeps the glossary's
 * word for "secret" and "passphrase" wherever English uses it, one form of address, and (French)
 * its typography. catalogues.test.ts checks the catalogues' shape.
 */

const ROOT = path.resolve(__dirname, '../../..');
const MESSAGES = path.join(ROOT, 'pages/src/i18n/messages');

const textOf = (message: Message | undefined): string => (typeof message === 'object' ? Object.values(message).join(' ') : (message ?? ''));
const catalogue = (language: string): Record<string, string> =>
  Object.fromEntries(
    Object.entries(JSON.parse(readFileSync(path.join(MESSAGES, `${language}.json`), 'utf8')) as Record<string, Message>).map(([key, message]) => [
      key,
      textOf(message),
    ]),
  );

/** docs/pages.md's glossary table: English term → language → term. */
function glossary(): Map<string, Record<string, string>> {
  const rows = readFileSync(path.join(ROOT, 'docs/pages.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('|---'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  const languages = rows.find((cells) => cells[0] === 'English')?.slice(1) ?? [];
  return new Map(rows.map(([english = '', ...terms]) => [english, Object.fromEntries(languages.map((language, at) => [language, terms[at] ?? '']))]));
}

/**
 * Whether `text` uses `term`, inflected: each word of the term begins a word of the text, its last
 * letter free ("phrases secrètes", "hasłem"). Japanese and Chinese terms are found as written.
 */
function uses(text: string, term: string): boolean {
  if (/[\u3040-\u9fff]/u.test(term)) return text.includes(term);
  const words = text.toLowerCase().match(/[\p{L}-]+/gu) ?? [];
  const stems = term
    .toLowerCase()
    .split(' ')
    .map((word) => (word.length >= 4 ? word.slice(0, -1) : word));
  return words.some((_, at) => stems.every((stem, offset) => words[at + offset]?.startsWith(stem) === true));
}

const english = catalogue(REFERENCE_LANGUAGE);
const terms = glossary();
const others = Object.keys(LANGUAGES).filter((language) => language !== REFERENCE_LANGUAGE);

describe.each(others)('%s', (language) => {
  const translated = catalogue(language);

  // "Secret text" is an adjective, which the languages write as one ("Geheimer Text").
  test.each([
    ['passphrase', /passphrase/i],
    ['secret', /\bsecrets?\b(?! text)/i],
  ])('says the glossary’s word for “%s” wherever English does', (word, inEnglish) => {
    const term = terms.get(word)?.[language];
    if (!term) throw new Error(`docs/pages.md has no ${language} term for ${word}`);
    const missing = Object.keys(english).filter((key) => inEnglish.test(english[key] ?? '') && !uses(translated[key] ?? '', term));
    expect({ term, missing }).toEqual({ term, missing: [] });
  });

  test('says that the passphrase, not the secret or the person, never leaves the browser', () => {
    const sentences = (translated['share.passphraseHint'] ?? '').split(/(?<=[.。])\s*/u).filter(Boolean);
    expect(uses(sentences.at(-1) ?? '', terms.get('passphrase')?.[language] ?? '?')).toBe(true);
  });
});

/** Forms a language's catalogue never uses: the address docs/pages.md does not choose, and second words for one term. */
test.each([
  ['zh-CN', '您, 秘密 and 密码短语 only', /你|机密|口令/u],
  ['pt-BR', 'você and frase secreta only', /\b(te|lhe|tu)\b|frase-senha/iu],
  ['pl', 'the address capitalised: Ci, Ty, Twój', /(?<![\p{L}])(ci|cię|ciebie|ty|twój|twoja|twoje|twojej|twoim|twoich)(?![\p{L}])/u],
])('%s: %s', (language, rule, avoided) => {
  const found = Object.entries(catalogue(language))
    .filter(([, text]) => avoided.test(text))
    .map(([key]) => key);
  expect({ rule, found }).toEqual({ rule, found: [] });
});

test('French puts a no-break space before : ; ? ! and », and after «', () => {
  const found = Object.entries(catalogue('fr'))
    .filter(([, text]) => /[ \u202f][:;?!»]|«[ \u202f]/u.test(text))
    .map(([key]) => key);
  expect(found).toEqual([]);
});
