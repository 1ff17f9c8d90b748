import { fork, type ForkOptions } from 'node:child_process';

/** A service in a process of its own: it reports once, ready or failed, and stops when told, when local mode is gone, or on SIGTERM. */

type ServiceReport<Ready> = { outcome: 'ready'; ready: Ready } | { outcome: 'failed'; message: string };

const STOP = 'stop';

/** Local mode's side: forks `entry` with `options`; `lost` says what stops working if it ends unasked. */
export function forkService<Ready>(
  entry: string,
  options: unknown,
  forkOptions: ForkOptions,
  { name, lost }: { name: string; lost: string },
): Promise<{ ready: Ready; stop: () => Promise<void> }> {
  const child = fork(entry, [JSON.stringify(options)], forkOptions);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready = false;
  let stopping = false;
  const stop = async (): Promise<void> => {
    stopping = true;
    // It may be gone already (killed on its own): a closed channel is no error here.
    if (child.connected) child.send(STOP, () => undefined);
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const ended = `${name} ended (${signal ?? code})`;
      if (!ready) reject(new Error(`${ended} before it was ready`));
      // Local mode goes on serving without it: say loudly what stopped.
      else if (!stopping) console.error(`${ended}: ${lost}; restart local mode`);
    });
    child.once('message', (report: ServiceReport<Ready>) => {
      ready = report.outcome === 'ready';
      if (report.outcome === 'ready') resolve({ ready: report.ready, stop });
      else reject(new Error(report.message));
    });
  });
}

/** The entry's side: starts the service, reports what `describe` makes of it, and stops it when asked. */
export function runService<Service extends { stop(): Promise<void> }, Ready>(
  start: () => Promise<Service>,
  describe: (service: Service) => Ready,
): void {
  let service: Service | undefined;
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    try {
      await service?.stop();
    } finally {
      process.exit(0);
    }
  };
  /** Reports to local mode, then goes on with `then` once the report is sent. */
  const report = (message: ServiceReport<Ready>, then: () => void = () => undefined): void => {
    if (process.send) process.send(message, then);
    else then();
  };
  process.on('message', (message) => {
    if (message === STOP) void stop();
  });
  process.on('disconnect', () => void stop());
  // Ctrl-C and a closed terminal signal the whole process group: local mode stops this process in its turn.
  process.on('SIGINT', () => undefined);
  process.on('SIGHUP', () => undefined);
  process.on('SIGTERM', () => void stop());
  start().then(
    (started) => {
      service = started;
      report({ outcome: 'ready', ready: describe(started) });
    },
    (error: unknown) => {
      report({ outcome: 'failed', message: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
    },
  );
}
