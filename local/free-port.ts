import { createServer } from 'node:net';

/** Where local mode's servers listen: this machine only, unless LISTEN_HOST opens the API (settings.ts). */
export const LOOPBACK = '127.0.0.1';

/** Below the ephemeral ranges: a kernel-picked port could go to an outgoing connection before DynamoDB Local binds it. */
const CHOSEN_PORTS = { first: 20_000, last: 32_767 };
const ATTEMPTS = 50;

/** A port free on every interface now, from a range no outgoing connection is given. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port = CHOSEN_PORTS.first + Math.floor(Math.random() * (CHOSEN_PORTS.last - CHOSEN_PORTS.first + 1));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port between ${CHOSEN_PORTS.first} and ${CHOSEN_PORTS.last} after ${ATTEMPTS} tries`);
}

/** Whether `port` can be bound on every interface, as the servers bind it. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => (isAddressInUse(error) ? resolve(false) : reject(error)));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/** What to tell a user whose port (set by `variable` or its default) is taken. */
export function portInUse(port: number, variable: string): Error {
  const another = port < 65535 ? port + 1 : port - 1;
  return new Error(`port ${port} is in use: set ${variable} to another port (${variable}=${another} npm start)`);
}

export const isAddressInUse = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'EADDRINUSE';

/** Fails fast, before DynamoDB Local's seconds of start-up, when `port` is taken on any interface. */
export async function assertPortFree(port: number, variable: string): Promise<void> {
  if (!(await isFree(port))) throw portInUse(port, variable);
}
