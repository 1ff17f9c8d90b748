import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** The scripts' command lines (npm run smoke, npm run dlq): node:util's parseArgs, and how a script answers a wrong one. */

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/** The reason, then the usage, on stderr; exit code 2. */
export function exitWithUsage(usage: string, message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

/** What `read` answers; what it throws is the reason to exit through exitWithUsage. */
export function readOrExit<T>(usage: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    return exitWithUsage(usage, error instanceof Error ? error.message : String(error));
  }
}

/**
 * `options` and -h/--help from the process's arguments. With --help, prints the usage and answers
 * undefined; an unknown option, a missing value or more than `maxPositionals` positional
 * arguments exits through exitWithUsage.
 */
export function parseCommandLine<const TOptions extends ParseArgsOptionsConfig>(usage: string, options: TOptions, maxPositionals: number) {
  const config = { allowPositionals: true as const, options: { ...options, ...HELP } };
  const parsed = readOrExit(usage, () => parseArgs(config));
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    return undefined;
  }
  const extra = parsed.positionals.slice(maxPositionals);
  if (extra.length > 0) exitWithUsage(usage, `unexpected arguments: ${extra.join(' ')}`);
  return parsed;
}
