import { createServer, type Server } from 'node:net';
import { freePort } from '#local/free-port';

const listenOn = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

test('chooses a port below every ephemeral range, so no outgoing connection can be given it', async () => {
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_768);
  }
});

test('chooses a port a server can then listen on, on every interface', async () => {
  const server = await listenOn(await freePort());
  await close(server);
});
