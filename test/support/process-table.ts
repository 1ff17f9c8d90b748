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

/** One thread's CPU time so far and its name (Linux keeps its first 15 characters). */
export interface ThreadStat {
  name: string;
  cpuMs: number;
}

/** A /proc stat file: fields after the command (which may contain spaces) start with state, ppid. */
function readStatFile(file: string): (ProcessStat & { name: string }) | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return {
      pid: Number(text.slice(0, text.indexOf(' '))),
      name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
      state: fields[0] ?? '',
      parent: Number(fields[1]),
      cpuMs: (ticks * 1000) / TICKS_PER_SECOND,
    };
  } catch {
    // The process or thread ended between the listing and the read.
    return undefined;
  }
}

export const readStat = (pid: number): ProcessStat | undefined => readStatFile(`/proc/${pid}/stat`);

/** The threads of process `pid`; none once it has ended. */
export function readThreads(pid: number): ThreadStat[] {
  let threadIds: string[];
  try {
    threadIds = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return threadIds.flatMap((id) => {
    const stat = readStatFile(`/proc/${pid}/task/${id}/stat`);
    return stat ? [{ name: stat.name, cpuMs: stat.cpuMs }] : [];
  });
}

/** Every process listed now (ended but unreaped ones included: see `state`). */
export const readProcessTable = (): ProcessStat[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => readStat(Number(name)) ?? []);
