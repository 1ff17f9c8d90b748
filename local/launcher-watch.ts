import { readFileSync } from 'node:fs';

/**
 * Stops local mode when a process that launched it ends (npm → sh → node: npm killed, or sent a
 * signal sh does not pass on, would leave this process serving). Node cannot ask the kernel for an
 * ancestor's end, so a timer compares each launcher's parent with the one it had at start: an
 * orphan is re-parented at once. See docs/decisions/local-mode-process-tree.md.
 */

/** A few /proc reads: cheap enough to check often. */
const CHECK_INTERVAL_MS = 500;

/** `pid`'s parent at start. */
interface Link {
  pid: number;
  parent: number;
}

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
 * This process and its launchers: its ancestors in its own process group, which is the job a
 * shell started (npm, sh) and the processes Ctrl-C reaches. The shell itself, in a group of
 * its own, may end without ending local mode (`npm start &` then `exit`, under nohup). Without
 * /proc (macOS), only this process's parent is watched.
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
