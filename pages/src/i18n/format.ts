import type english from './messages/en.json';

/**
 * Messages (`{name}` placeholders, plural forms by Intl.PluralRules), free of the DOM so that tests run them in Node.
 * Hand-written: ICU MessageFormat would add about 15 kB to every page for what Intl mostly does.
 */

export type PluralForms = Readonly<Partial<Record<Intl.LDMLPluralRule, string>>> & { readonly other: string };
export type Message = string | PluralForms;
export type MessageKey = keyof typeof english;
export type Catalogue = Readonly<Record<MessageKey, Message>>;

/** A value for a placeholder, formatted in the reader's language. */
export type Param =
  string | number | { readonly time: number } | { readonly dateTime: number } | { readonly bytes: number } | { readonly message: MessageKey };

export type Params = Readonly<Record<string, Param>>;

/** What an element says: a message and the values of its placeholders. */
export interface Phrase {
  readonly key: MessageKey;
  readonly params?: Params;
}

export const PLACEHOLDER = /\{(\w+)\}/g;

/** `bytes` as the reader's language writes sizes: 512 bytes, 3.9 MB, 3,9 Mo, 3.9 MB. */
export function formatBytes(language: string, bytes: number): string {
  if (bytes < 1000) return new Intl.NumberFormat(language, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  const [unit, size] = bytes < 1_000_000 ? (['kilobyte', bytes / 1000] as const) : (['megabyte', bytes / 1_000_000] as const);
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(size);
}

function formatParam(catalogue: Catalogue, language: string, param: Param): string {
  if (typeof param === 'string') return param;
  if (typeof param === 'number') return new Intl.NumberFormat(language).format(param);
  if ('time' in param) return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(param.time);
  if ('dateTime' in param) return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(param.dateTime);
  if ('bytes' in param) return formatBytes(language, param.bytes);
  return formatMessage(catalogue, language, { key: param.message });
}

export function pluralForm(message: Message, language: string, count: number): string {
  if (typeof message === 'string') return message;
  return message[new Intl.PluralRules(language).select(count)] ?? message.other;
}

export function formatMessage(catalogue: Catalogue, language: string, { key, params = {} }: Phrase): string {
  const count = params.count;
  const words = pluralForm(catalogue[key], language, typeof count === 'number' ? count : 0);
  return words.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = params[name];
    return value === undefined ? placeholder : formatParam(catalogue, language, value);
  });
}

/** The placeholders a message uses, in all its forms. */
export function placeholdersOf(message: Message): Set<string> {
  const forms = typeof message === 'string' ? [message] : Object.values(message);
  return new Set(forms.flatMap((form) => [...(form ?? '').matchAll(PLACEHOLDER)].map((match) => match[1] ?? '')));
}
