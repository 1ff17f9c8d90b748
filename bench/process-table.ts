import { readdirSync, readFileSync } from 'node:fs';

/** Linux's process table, from /proc: for the bench's CPU meter and for tests of local mode's processes. */

/** USER_HZ: /proc reports CPU time in these ticks, 100 a second on every Linux ABI. */
const TICKS_PER_SECOND = 100;

export interface ProcessStat {
  pid: number;
  parent: number;
  /** 'Z' for a process that has ended and not been reaped. */
  state: string;
  /** User and system CPU time so far. */
  cpuMs: number;
}

/** /proc/<pid>/stat: fields after the command (which may contain spaces) start with state, ppid. */
export function readStat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { pid, state: fields[0] ?? '', parent: Number(fields[1]), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
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
