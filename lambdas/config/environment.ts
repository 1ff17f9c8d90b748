import { fieldError, type Field } from './fields';
import { type FunctionName, type FunctionSettings, type SettingName, type SettingRow, type SettingValues, settingRows } from './settings';

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

/**
 * The settings whose rows name `functionName` (settings.ts), by their rows' names, from the
 * variables the stack sets (local mode: those of `npm start`). Read once, when the function's
 * module loads, so that a bad value fails its first invocation naming the variable, not a
 * request at random.
 */
export const readFunctionSettings = <F extends FunctionName>(functionName: F, env: Readonly<Record<string, string | undefined>> = process.env) =>
  readSettingsWhere((row) => Array.isArray(row.functions) && row.functions.includes(functionName), env) as FunctionSettings<F>;

/** The settings of the rows `keep` keeps, from their variables, as their functions read them. */
export function readSettingsWhere(keep: (row: SettingRow<unknown>) => boolean, env: Readonly<Record<string, string | undefined>>): SettingValues {
  const rows = settingRows(keep);
  const variable = (name: SettingName, row: SettingRow<unknown>): string => row.env ?? name;
  const shape = rows.map(([name, row]) => [
    variable(name, row),
    { field: row.field, ...(row.required ? {} : { unset: { value: row.localDefault ?? row.default } }) },
  ]);
  const read = readEnvironment(Object.fromEntries(shape) as Settings, env);
  return Object.fromEntries(rows.map(([name, row]) => [name, read[variable(name, row)]]));
}
