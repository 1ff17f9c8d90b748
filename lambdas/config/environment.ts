import { fieldError } from './fields';
import {
  type FunctionName,
  type FunctionSettings,
  SETTINGS,
  type SettingName,
  type SettingRow,
  type SettingValue,
  type SettingValues,
  settingRows,
} from './settings';

/**
 * A function's settings, read from its environment with the fields' plain rules rather than a zod
 * schema: the functions read them at every cold start, and building and running the schema cost
 * 2–4 ms of CPU there (docs/decisions/config-schemas.md). The errors are readSettings' own.
 */

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The settings whose rows name `functionName` (settings.ts), by their rows' names, from the
 * variables the stack sets (local mode: those of `npm start`). Read once, when the function's
 * module loads, so that a bad value fails its first invocation naming the variable, not a
 * request at random.
 */
export const readFunctionSettings = <F extends FunctionName>(functionName: F, env: Env = process.env) =>
  readSettingsWhere((row) => Array.isArray(row.functions) && row.functions.includes(functionName), env) as FunctionSettings<F>;

/**
 * One setting, read at module load by the code that uses it (a store, a use-case), so that its value
 * is not carried through the handler and use-case by hand. Its row's `functions` must name every
 * function that runs that code: elsewhere the stack does not set it, and it takes its default.
 */
export const readSetting = <Name extends SettingName>(name: Name, env: Env = process.env) =>
  readSettingsWhere((row) => row === SETTINGS[name], env)[name] as SettingValue<Name>;

/**
 * The settings of the rows `keep` keeps, each from its variable; an empty one counts as unset, and
 * takes the row's default (none: `required` ones are an error). Throws one Error listing every bad
 * variable, each on a line of its own.
 */
export function readSettingsWhere(keep: (row: SettingRow<unknown>) => boolean, env: Env): SettingValues {
  const settings: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const [name, { env: variable = name, field, required, localDefault, default: byDefault }] of settingRows(keep)) {
    const given = env[variable];
    const value = given === undefined || given === '' ? undefined : field.parse(given);
    if (value !== undefined) settings[name] = value;
    else if (given !== undefined && given !== '') errors.push(`${variable} ${fieldError(field, given)}`);
    else if (required) errors.push(`${variable} ${fieldError(field, undefined)}`);
    else settings[name] = localDefault ?? byDefault;
  }
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return settings;
}
