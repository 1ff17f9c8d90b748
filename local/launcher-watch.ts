import { readFileSync } from 'node:fs';

/**
 * Stops local mode when a process that launched it ends (a killed npm would leave it serving): an
 * orphan is re-parented at once (docs/decisions/local-mode-process-tree.md).
 */

const CHECK_INTERVAL_MS = 500;

/** `pid` and its parent at start. */
type Link = { pid: number; parent: number };

/** A process's parent and process group, from /proc/<pid>/stat (Linux); undefined once it has ended. */
function readLink(pid: number): { parent: number; group: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command, which is in parentheses and may hold spaces: state, parent, process group.
    const [, parent, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(parent), group: Number(group) };
  } catch {
    return undefined;
  }
}

/**
 * This process and its launchers: its ancestors in its own process group (npm, sh: the job a shell
 * started), not the shell itself, which may end without ending local mode (`npm start &`, `exit`).
 * Without /proc (macOS), only this process's parent is watched.
 */
function launchChain(): Link[] {
  const own = readLink(process.pid);
  if (!own) return [{ pid: process.pid, parent: process.ppid }];
  const chain: Link[] = [];
  for (let pid = process.pid, link = own; ;) {
    const parent = readLink(link.parent);
    if (!parent || parent.group !== own.group) return chain;
    chain.push({ pid, parent: link.parent });
    pid = link.parent;
    link = parent;
  }
}

/** Nearest first, so that each launcher is read only once the one below it is known to be alive. */
const currentParent = (pid: number): number | undefined => (pid === process.pid ? process.ppid : readLink(pid)?.parent);

/** Calls `onEnded` once, when a launcher has ended. */
export function watchLaunchers(onEnded: () => void): void {
  const chain = launchChain();
  if (chain.length === 0) return;
  const timer = setInterval(() => {
    if (chain.every(({ pid, parent }) => currentParent(pid) === parent)) return;
    clearInterval(timer);
    onEnded();
  }, CHECK_INTERVAL_MS);
  timer.unref();
}
