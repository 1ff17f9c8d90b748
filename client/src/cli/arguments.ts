import { parseArgs } from 'node:util';
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
  secret: { type: 'string' },
  signature: { type: 'string' },
  note: { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;
export const GLOBAL_OPTIONS: readonly OptionName[] = ['api-url', 'api-key', 'help'];

export type Values = ReturnType<typeof parse>['values'];

export function parse(args: readonly string[]) {
  try {
    return parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's own message, first sentence: "Unknown option '--ttl'", "Option '--views <value>' argument missing".
    throw new InputError((error as Error).message.split('. ')[0] ?? 'invalid arguments');
  }
}
