import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { readProcessTable, readStat } from '#test/support/process-table';

/** Local mode's processes as /proc shows them, and whether its ports still answer. */

export interface LiveProcess {
  pid: number;
  parent: number;
  command: string;
}

export const portIsOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Whether any thread of `pid` still runs. Its first thread's state alone is not enough: java's
 * may be a zombie while other threads are still closing its sockets.
 */
function anyThreadRuns(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((thread) => (readStat(Number(thread))?.state ?? 'Z') !== 'Z');
  } catch {
    return false; // ended since the listing
  }
}

/** Each live process's parent and command line (ended ones, zombies included, are left out). */
export function liveProcesses(): LiveProcess[] {
  return readProcessTable()
    .filter((stat) => stat.state !== 'Z' || anyThreadRuns(stat.pid))
    .flatMap(({ pid, parent }) => {
      try {
        return [{ pid, parent, command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ') }];
      } catch {
        return []; // ended between the listing and the read
      }
    });
}

/** `root` and every live process beneath it. */
export function processTree(root: number): LiveProcess[] {
  const processes = liveProcesses();
  const tree = processes.filter((each) => each.pid === root);
  for (let at = 0; at < tree.length; at++) tree.push(...processes.filter((each) => each.parent === tree[at]?.pid));
  return tree;
}

/**
 * The processes of `tree` that still run. A pid may have been given to another process since:
 * only one with the same command line counts, or with none, as a process has while it exits
 * (its memory is gone but its sockets may still be open).
 */
export const survivors = (tree: readonly LiveProcess[]): LiveProcess[] =>
  liveProcesses().filter((each) => tree.some((known) => known.pid === each.pid && (each.command === known.command || each.command === '')));
