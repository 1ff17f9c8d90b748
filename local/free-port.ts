import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** What to tell a user whose port (set by `variable` or its default) is taken. */
export function portInUse(port: number, variable: string): Error {
  const another = port < 65535 ? port + 1 : port - 1;
  return new Error(`port ${port} is in use: set ${variable} to another port (${variable}=${another} npm start)`);
}

export const isAddressInUse = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'EADDRINUSE';

/**
 * Fails fast, before DynamoDB Local's seconds of start-up, when `port` is taken: bound as the
 * servers bind it (every interface), so a listener on any of them counts.
 */
export function assertPortFree(port: number, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(isAddressInUse(error) ? portInUse(port, variable) : error));
    probe.listen(port, () => probe.close(() => resolve()));
  });
}
