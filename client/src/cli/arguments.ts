import { parseArgs } from 'node:util';
import { secretId } from '../../../contract/schemas';
import { InputError } from '../errors';

/** Every option of every command; each command says which of them it takes (commands.ts). */
export const OPTIONS = {
  'api-url': { type: 'string' },
  'api-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ttl: { type: 'string' },
  views: { type: 'string' },
  json: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  force: { type: 'boolean' },
  /** A file holding the passphrase; a passphrase itself is never taken as an argument. */
  'passphrase-file': { type: 'string' },
  /** share: gate the secret with a passphrase asked for on the terminal. */
  'ask-passphrase': { type: 'boolean' },
  webhook: { type: 'string' },
  /** login: the authorization code flow with a redirect to this machine, even where the provider offers device authorization. */
  browser: { type: 'boolean' },
  secret: { type: 'string' },
  signature: { type: 'string' },
  note: { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;
export const GLOBAL_OPTIONS: readonly OptionName[] = ['api-url', 'api-key', 'help'];

export type Values = ReturnType<typeof parse>['values'];

/** Cannot begin a real argument: a stand-in for one that parseArgs must not read as options. */
const STAND_IN_PREFIX = '\u0000';

const isOptionName = (arg: string): boolean => arg.startsWith('--') && Object.hasOwn(OPTIONS, arg.slice(2));

/**
 * A secret id may begin with '-' (one in 64 does: it is in the URL-safe alphabet), which
 * parseArgs would read as options ("Unknown option '-a'" for `onetime status -aB3…`). An argument
 * that is a well-formed secret id is one, never an option: it goes through parseArgs under a
 * stand-in and comes back where it was, as a positional or as an option's value.
 */
export function parse(args: readonly string[]) {
  const ids = new Map<string, string>();
  const shielded = args.map((arg, index) => {
    if (!arg.startsWith('-') || isOptionName(arg) || !secretId.safeParse(arg).success) return arg;
    const standIn = `${STAND_IN_PREFIX}${index}`;
    ids.set(standIn, arg);
    return standIn;
  });
  const restored = (value: string): string => ids.get(value) ?? value;
  let parsed;
  try {
    parsed = parseArgs({ args: shielded, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's own message, first sentence: "Unknown option '--ttl'", "Option '--views <value>' argument missing".
    throw new InputError((error as Error).message.split('. ')[0] ?? 'invalid arguments');
  }
  const values = { ...parsed.values };
  for (const name of Object.keys(values) as OptionName[]) {
    const value = values[name];
    if (typeof value === 'string') Object.assign(values, { [name]: restored(value) });
  }
  return { ...parsed, values, positionals: parsed.positionals.map(restored) };
}
