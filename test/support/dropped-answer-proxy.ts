import { once } from 'node:events';
import { Agent, createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy between a client (the library, the CLI, a browser) and the service that loses an
 * answer the service HAS given: the selected request is forwarded, the service handles it and
 * answers in full, and then the client's connection is dropped without a byte of that answer.
 * That is a phone losing its network as the reveal comes back. Every other request passes
 * through. Hand-written on node:http: the fault must wait for the service's whole answer, which
 * proxy libraries do not offer.
 */

export interface DroppedAnswerProxy {
  /** The proxy's origin: the pages and, under /api/v1, the API. */
  origin: string;
  /** The next request for which `selects` holds is answered by the service, and that answer dropped. */
  dropNext(selects: (method: string, path: string) => boolean): void;
  /** Answers dropped so far, and what the service had answered to each. */
  dropped: { method: string; path: string; status: number }[];
  /** Every request seen, in order: method and path without the query. */
  seen: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  stop(): Promise<void>;
}

export async function startDroppedAnswerProxy(upstreamOrigin: string): Promise<DroppedAnswerProxy> {
  const upstream = new URL(upstreamOrigin);
  const agent = new Agent({ keepAlive: true });
  let selector: ((method: string, path: string) => boolean) | undefined;
  const dropped: DroppedAnswerProxy['dropped'] = [];
  const seen: DroppedAnswerProxy['seen'] = [];

  const server = createServer((incoming, outgoing) => {
    const method = incoming.method ?? 'GET';
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    seen.push({ method, path, headers: incoming.headers });
    const drop = selector?.(method, path) === true;
    if (drop) selector = undefined;
    // The answer is relayed whole, or dropped, once it has fully arrived.
    const relay = async (answer: IncomingMessage): Promise<void> => {
      const chunks: Buffer[] = [];
      for await (const chunk of answer) chunks.push(chunk as Buffer);
      if (drop) {
        dropped.push({ method, path, status: answer.statusCode ?? 0 });
        outgoing.socket?.destroy();
        return;
      }
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      outgoing.end(Buffer.concat(chunks));
    };
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, path: incoming.url, method, headers: incoming.headers, agent },
      (answer) => void relay(answer),
    );
    forwarded.on('error', () => outgoing.socket?.destroy());
    incoming.pipe(forwarded);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    dropNext: (selects) => {
      selector = selects;
    },
    dropped,
    seen,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
