// zod/mini, as for request bodies (http/schemas.ts): the functions read their environment with
// these too, and the chained API would pull all of zod into their bundles.
import * as z from 'zod/mini';
import { SITE_URL_MAX_LENGTH } from '../definitions/limits';

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

export interface IntegerRange {
  /** 0 or more: the value is digits only, without a sign. */
  readonly min: number;
  /** None: any safe integer. */
  readonly max?: number;
  /** What the upper bound protects, told in the error: "so that <why>". */
  readonly why?: string;
}

/** An integer within `range`, in digits only (Number() would also take '1e3', '0x3e8' or ' 7'). */
export function integer({ min, max, why }: IntegerRange) {
  const what =
    max === undefined
      ? min === 1
        ? 'a positive integer'
        : `an integer of at least ${min}`
      : `an integer from ${min} to ${max}${why === undefined ? '' : ` (so that ${why})`}`;
  const error = mustBe(what);
  const inRange = (digits: string): boolean => Number(digits) >= min && Number(digits) <= (max ?? Number.MAX_SAFE_INTEGER);
  // Checked as text, so that an error repeats the value as it was given.
  return z.pipe(z.string({ error }).check(z.regex(/^\d+$/, { error, abort: true }), z.refine(inRange, { error })), z.transform(Number));
}

const FLAG_VALUES = { true: true, '1': true, false: false, '0': false } as const;
type FlagText = keyof typeof FLAG_VALUES;

/** A switch: true, false, 1 or 0. */
export function flag() {
  return z.pipe(
    z.enum(Object.keys(FLAG_VALUES) as [FlagText, ...FlagText[]], { error: mustBe('true or false (or 1 or 0)') }),
    z.transform((value: FlagText) => FLAG_VALUES[value]),
  );
}

/** An absolute http(s) URL. */
export function httpUrl() {
  return z.url({ protocol: /^https?$/, error: mustBe('an absolute http(s) URL') });
}

/** The base of secret links (SITE_URL, context siteUrl): bounded, so that every link is. */
export function siteUrl() {
  const error = mustBe(`an absolute http(s) URL of at most ${SITE_URL_MAX_LENGTH} characters`);
  return z.url({ protocol: /^https?$/, error }).check(z.maxLength(SITE_URL_MAX_LENGTH, { error }));
}

/** One address SNS can deliver to: no display name, no list, a dotted domain. */
export function email() {
  return z.email({ error: mustBe('an email address such as ops@example.com') });
}

/** One of `values`; with `ignoreCase`, in any case, given back as written in `values`. */
export function oneOf<const Value extends string>(values: readonly [Value, ...Value[]], { ignoreCase = false } = {}) {
  const error = mustBe(`one of ${values.join(', ')}${ignoreCase ? ' (in any case)' : ''}`);
  const find = (given: string): Value | undefined =>
    values.find((value) => (ignoreCase ? value.toUpperCase() === given.toUpperCase() : value === given));
  return z.pipe(
    z.string({ error }).check(z.refine((given) => find(given) !== undefined, { error })),
    z.transform((given: string) => find(given) as Value),
  );
}

/** A string matching `pattern`, described by `what` in the error (e.g. "a host name such as secrets.example.com"). */
export function matching(pattern: RegExp, what: string) {
  const error = mustBe(what);
  return z.string({ error }).check(z.regex(pattern, { error }));
}

/** Any string, such as a path or a name; with `secret`, its errors never repeat it. */
export function text(options: MustBeOptions = {}) {
  return z.string({ error: mustBe('a string', options) });
}

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
