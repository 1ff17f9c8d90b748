import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Ends `child` when this process dies, however it dies (SIGKILL included), without polling: a
 * tiny `sh` reads a pipe whose only writer is this process, and the kernel closes that pipe when
 * this process ends. On end of file it sends `child` SIGTERM. Node has no way to ask the kernel for
 * that itself (prctl's PR_SET_PDEATHSIG is out of reach), hence the shell.
 * See docs/decisions/local-mode-process-tree.md.
 *
 * The guard kills by pid, so it must never outlive `child`: it is killed in the very callback that
 * reports `child`'s end, before that pid can be handed to another process.
 */
const GUARD_SCRIPT = 'read -r _; kill -TERM "$1" 2>/dev/null';

export function guardAgainstOrphan(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  // stdin 'pipe': the lifeline. Node opens its end close-on-exec, so no later child holds it open.
  const guard = spawn('sh', ['-c', GUARD_SCRIPT, 'orphan-guard', String(child.pid)], { stdio: ['pipe', 'ignore', 'ignore'] });
  // Without a shell (Windows) `child` runs unguarded, as it did before.
  guard.once('error', (error) => console.error(`cannot guard process ${child.pid} against orphaning: ${error.message}`));
  child.once('exit', () => guard.kill('SIGKILL'));
  // The guard must not keep this process's event loop alive (its idle pipe does not either).
  guard.unref();
}
