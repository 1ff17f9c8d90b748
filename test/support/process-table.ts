import { readdirSync, readFileSync } from 'node:fs';

/** Linux's process table, from /proc: for tests of local mode's processes. */

export interface ProcessStat {
  pid: number;
  parent: number;
  /** 'Z' for a process that has ended and not been reaped. */
  state: string;
}

/** A /proc stat file: fields after the command (which may contain spaces) start with state, ppid. */
export function readStat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0] ?? '', parent: Number(fields[1]) };
  } catch {
    // The process ended between the listing and the read.
    return undefined;
  }
}

/** Every process listed now (ended but unreaped ones included: see `state`). */
export const readProcessTable = (): ProcessStat[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => readStat(Number(name)) ?? []);
