import { fieldError, type Field } from './fields';

/**
 * A function's settings, read from its environment with the fields' plain rules rather than a zod
 * schema: the functions read them at every cold start, and building and running the schema cost
 * 2–4 ms of CPU there (docs/decisions/config-schemas.md). The errors are readSettings' own.
 */

/** One variable: its rule, and what it means when unset (none: it must be set). */
export interface Setting<Value> {
  readonly field: Field<Value>;
  readonly unset?: { readonly value: Value };
}

export const required = <Value>(field: Field<Value>): Setting<Value> => ({ field });
export const optional = <Value>(field: Field<Value>): Setting<Value | undefined> => ({ field, unset: { value: undefined } });
export const withDefault = <Value>(field: Field<Value>, value: NoInfer<Value>): Setting<Value> => ({ field, unset: { value } });

type Settings = Readonly<Record<string, Setting<unknown>>>;
export type SettingsOf<Shape extends Settings> = { -readonly [Name in keyof Shape]: Shape[Name] extends Setting<infer Value> ? Value : never };

/**
 * Every variable of `shape`, by its name, from `env`; an empty one counts as unset. Throws one
 * Error listing every bad variable, each on a line of its own.
 */
export function readEnvironment<Shape extends Settings>(shape: Shape, env: Readonly<Record<string, string | undefined>>): SettingsOf<Shape> {
  const settings: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const [name, { field, unset }] of Object.entries(shape)) {
    const given = env[name];
    if (given === undefined || given === '') {
      if (unset) settings[name] = unset.value;
      else errors.push(`${name} ${fieldError(field, undefined)}`);
      continue;
    }
    const value = field.parse(given);
    if (value === undefined) errors.push(`${name} ${fieldError(field, given)}`);
    else settings[name] = value;
  }
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return settings as SettingsOf<Shape>;
}
