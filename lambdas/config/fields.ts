// zod/mini, as for request bodies (http/schemas.ts): the functions read their environment with
// these too, and the chained API would pull all of zod into their bundles.
import * as z from 'zod/mini';
import { SITE_URL_MAX_LENGTH } from '#contract/limits';
import { isSpelledOutUrl } from '../rules/spelled-out-url';

/**
 * The kinds of value a setting can take, shared by every surface that reads configuration (CDK
 * context, the functions' environment, local mode's, `npm run dlq`'s), so that a bad value is
 * told the same way everywhere: `<name> must be <what>, got <value>`.
 *
 * Every field parses text: values from the environment and from `cdk -c` arrive as strings, and
 * readSettings turns cdk.json's JSON numbers and booleans into theirs, so that `-c n=7` and
 * `"n": 7` are one value. (Taking both forms in each field would cost the functions' bundles
 * zod's unions, for values their environment never holds.) An empty value counts as unset.
 */

/** At most this much of a bad value is repeated in its error. */
const SHOWN_VALUE_MAX_LENGTH = 80;

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_VALUE_MAX_LENGTH ? `${text.slice(0, SHOWN_VALUE_MAX_LENGTH)}…` : text;
};

interface MustBeOptions {
  /** The value may be a credential: its error never repeats it. */
  readonly secret?: boolean;
}

/** The one error of a field: what it must be, and what was given (unless that could be a secret). */
const mustBe =
  (what: string, { secret = false }: MustBeOptions = {}) =>
  (issue: { readonly input?: unknown }): string => {
    if (issue.input === undefined) return `is not set: it must be ${what}`;
    return secret ? `must be ${what} (the value given is not shown: it may be a secret)` : `must be ${what}, got ${shown(issue.input)}`;
  };

/**
 * One setting's rule: what its value must be, told in its errors, and how its text becomes the
 * value. The rules are plain functions so that the functions, which read their few settings at
 * every cold start, can read them without building zod schemas (readSettingsWhere): that cost
 * them 2–4 ms of CPU per cold start (docs/decisions/config-schemas.md). The
 * surfaces that read settings with a schema wrap the same rule (schemaOf), so every surface takes
 * the same values and tells a bad one in the same words.
 */
export interface Field<Value> {
  readonly what: string;
  /** The value may be a credential: its error never repeats it. */
  readonly secret?: boolean;
  /** The value, or undefined when `text` is not one. */
  readonly parse: (text: string) => Value | undefined;
}

/** What is wrong with `input` (undefined: unset) as a value of `field`, in every surface's words. */
export const fieldError = (field: Field<unknown>, input: unknown): string => mustBe(field.what, field)({ input });

/** `field` as a zod schema of text, for readSettings. */
export function schemaOf<Value>(field: Field<Value>) {
  const error = mustBe(field.what, field);
  return z.pipe(
    z.string({ error }).check(z.refine((given) => field.parse(given) !== undefined, { error })),
    z.transform((given: string) => field.parse(given) as Value),
  );
}

export interface IntegerRange {
  /** 0 or more: the value is digits only, without a sign. */
  readonly min: number;
  /** None: any safe integer. */
  readonly max?: number;
  /** What the upper bound protects, told in the error: "so that <why>". */
  readonly why?: string;
}

/** An integer within `range`, in digits only (Number() would also take '1e3', '0x3e8' or ' 7'). */
export function integerField({ min, max, why }: IntegerRange): Field<number> {
  const what =
    max === undefined
      ? min === 1
        ? 'a positive integer'
        : `an integer of at least ${min}`
      : `an integer from ${min} to ${max}${why === undefined ? '' : ` (so that ${why})`}`;
  return {
    what,
    parse: (given) => {
      if (!/^\d+$/.test(given)) return undefined;
      const value = Number(given);
      return value >= min && value <= (max ?? Number.MAX_SAFE_INTEGER) ? value : undefined;
    },
  };
}

const FLAG_VALUES: Readonly<Record<string, boolean>> = { true: true, '1': true, false: false, '0': false };

/** A switch: true, false, 1 or 0. */
export const flagField = (): Field<boolean> => ({
  what: 'true or false (or 1 or 0)',
  parse: (given) => (Object.hasOwn(FLAG_VALUES, given) ? FLAG_VALUES[given] : undefined),
});

/**
 * `given` without surrounding spaces if it is an absolute http(s) URL that the URL parser reads
 * as written (isSpelledOutUrl, the webhook URL's rule too), else undefined.
 */
function httpUrlOrUndefined(given: string): string | undefined {
  const url = given.trim();
  return /^https?:/i.test(url) && isSpelledOutUrl(url) ? url : undefined;
}

/** An absolute http(s) URL. */
export const httpUrlField = (): Field<string> => ({ what: 'an absolute http(s) URL', parse: httpUrlOrUndefined });

/** The base of secret links (SITE_URL, context siteUrl): bounded, so that every link is; without trailing slashes, as links are `<base>/<id>`. */
export const siteUrlField = (): Field<string> => ({
  what: `an absolute http(s) URL of at most ${SITE_URL_MAX_LENGTH} characters`,
  parse: (given) => (given.length <= SITE_URL_MAX_LENGTH ? httpUrlOrUndefined(given)?.replace(/\/+$/, '') : undefined),
});

/** One of `values`; with `ignoreCase`, in any case, given back as written in `values`. */
export function oneOfField<const Value extends string>(values: readonly [Value, ...Value[]], { ignoreCase = false } = {}): Field<Value> {
  return {
    what: `one of ${values.join(', ')}${ignoreCase ? ' (in any case)' : ''}`,
    parse: (given) => values.find((value) => (ignoreCase ? value.toUpperCase() === given.toUpperCase() : value === given)),
  };
}

/** A string matching `pattern`, described by `what` in the error (e.g. "a host name such as secrets.example.com"). */
export const matchingField = (pattern: RegExp, what: string): Field<string> => ({
  what,
  parse: (given) => (pattern.test(given) ? given : undefined),
});

/** One address SNS can deliver to (zod's own email rule): no display name, no list, a dotted domain. */
export const emailField = (): Field<string> => ({
  what: 'an email address such as ops@example.com',
  parse: (given) => (z.safeParse(z.email(), given).success ? given : undefined),
});

/** Comma-separated names without empty ones, such as email domains (lowercased) or groups. */
export const nameListField = (what: string, { lowercase = false } = {}): Field<readonly string[]> => ({
  what: `a comma-separated list of ${what}`,
  parse: (given) => {
    const names = given.split(',').map((name) => (lowercase ? name.trim().toLowerCase() : name.trim()));
    return names.every((name) => name !== '') ? names : undefined;
  },
});

/** Any string, such as a path or a name; with `secret`, its errors never repeat it. */
export const textField = (options: MustBeOptions = {}): Field<string> => ({ what: 'a string', ...options, parse: (given) => given });

export const integer = (range: IntegerRange) => schemaOf(integerField(range));
export const flag = () => schemaOf(flagField());
export const httpUrl = () => schemaOf(httpUrlField());
export const siteUrl = () => schemaOf(siteUrlField());
export const oneOf = <const Value extends string>(values: readonly [Value, ...Value[]], options: { ignoreCase?: boolean } = {}) =>
  schemaOf(oneOfField(values, options));
export const text = (options: MustBeOptions = {}) => schemaOf(textField(options));

/** `first` and `second` both set, or neither: one without the other cannot be used. */
export function together<Shape extends Record<string, unknown>>(first: keyof Shape & string, second: keyof Shape & string) {
  return z.refine<Shape>((settings) => (settings[first] === undefined) === (settings[second] === undefined), {
    error: `${first} and ${second} go together: set both, or neither`,
  });
}

export interface SettingsSource {
  /** The raw value of a setting, undefined if unset. */
  readonly read: (key: string) => unknown;
  /** Put before each setting's name in errors, e.g. 'context ' for CDK context. */
  readonly prefix?: string;
}

/**
 * The settings `schema` describes, read from `source`: every setting is read by its own name, an
 * empty one counts as unset (`VAR=` in a shell, `-c key=`). Throws one Error listing every bad
 * setting, each on a line of its own, in the fields' words.
 */
export function readSettings<Shape extends z.core.$ZodShape, Output>(
  schema: z.ZodMiniType<Output, unknown> & { readonly shape: Shape },
  { read, prefix = '' }: SettingsSource,
): Output {
  const given = Object.keys(schema.shape).flatMap((key) => {
    const value = read(key);
    if (value === undefined || value === '') return [];
    return [[key, typeof value === 'number' || typeof value === 'boolean' ? String(value) : value] as const];
  });
  const parsed = z.safeParse(schema, Object.fromEntries(given));
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const key = issue.path[0];
    return key === undefined ? `${prefix}${issue.message}` : `${prefix}${String(key)} ${issue.message}`;
  });
  // A value can fail more than one check of its field; each field's error says all it must be.
  throw new Error([...new Set(lines)].join('\n'));
}
