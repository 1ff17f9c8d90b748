#!/usr/bin/env node
import { InputError } from '../errors';
import { GLOBAL_OPTIONS, parse, type OptionName } from './arguments';
import { COMMANDS, type Command, type Io } from './commands';
import { EXIT, describeFailure } from './exit-codes';
import { MCP_COMMANDS } from '../mcp/server';
import { REQUEST_COMMANDS } from './request-commands';
import { readSettings } from './settings';
import { USAGE } from './usage';

/** `onetime`: docs/client.md §3 on the library. Node only; the library itself stays browser-safe. */

/** The command named by the first one or two positionals, and the positionals left for it. */
function findCommand(positionals: string[]): { command: Command; name: string; rest: string[] } {
  for (const words of [2, 1]) {
    const name = positionals.slice(0, words).join(' ');
    const command = COMMANDS[name] ?? REQUEST_COMMANDS[name] ?? MCP_COMMANDS[name];
    if (command) return { command, name, rest: positionals.slice(words) };
  }
  throw new InputError(`unknown command: ${positionals.slice(0, 2).join(' ')} (onetime --help lists them)`);
}

export async function main(args: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<number> {
  try {
    const { values, positionals } = parse(args);
    if (values.help) {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (positionals.length === 0) {
      io.stderr.write(USAGE);
      return EXIT.input;
    }
    const { command, name, rest } = findCommand(positionals);
    const given = Object.keys(values) as OptionName[];
    const foreign = given.find((option) => !command.options.includes(option) && !GLOBAL_OPTIONS.includes(option));
    if (foreign) throw new InputError(`${name} takes no --${foreign} option`);
    if (rest.length < command.positionals.min || rest.length > command.positionals.max) {
      throw new InputError(`usage: onetime ${name} ${command.positionals.names}`.trim());
    }
    await command.run({ values, positionals: rest, settings: readSettings(values, env), io });
    return EXIT.ok;
  } catch (error) {
    const { line, exitCode } = describeFailure(error);
    io.stderr.write(`${line}\n`);
    return exitCode;
  }
}

void main(process.argv.slice(2), process, process.env).then((code) => {
  // exitCode rather than exit(): stdout may still be flushing a large text into a pipe.
  process.exitCode = code;
});
