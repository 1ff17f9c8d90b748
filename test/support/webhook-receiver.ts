import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP webhook receiver on 127.0.0.1, for unit and integration tests. Each test takes its
 * own path and scripts how the receiver answers each attempt there.
 */

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The body as UTF-8 text. */
  body: string;
  receivedAt: number;
}

/** How to answer the n-th request (1-based) to a path: a status, optionally after a delay and with headers. */
export type Answer = (attempt: number) => { status: number; delayMs?: number; headers?: Record<string, string> };

export interface WebhookReceiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  url(path: string): string;
  answer(path: string, answer: Answer): void;
  /** What `path` received, or every path when none is given, in order of arrival. */
  received(path?: string): ReceivedRequest[];
  clear(): void;
  /** Resolves once `path` has received `count` requests; rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs: number): Promise<ReceivedRequest[]>;
  stop(): Promise<void>;
}

/** `statusOf`: the answer of paths without a scripted one (default 200). */
export async function startWebhookReceiver(statusOf: (path: string) => number = () => 200): Promise<WebhookReceiver> {
  const requests = new Map<string, ReceivedRequest[]>();
  const arrivals: ReceivedRequest[] = [];
  const answers = new Map<string, Answer>();
  const waiters = new Set<() => void>();
  const pendingResponses = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const rawBody = Buffer.concat(chunks);
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path,
        headers: request.headers,
        rawBody,
        body: rawBody.toString('utf8'),
        receivedAt: Date.now(),
      };
      const list = requests.get(path) ?? [];
      list.push(received);
      requests.set(path, list);
      arrivals.push(received);
      for (const wake of waiters) wake();
      const answer: Answer = answers.get(path) ?? (() => ({ status: statusOf(path) }));
      const { status, delayMs = 0, headers = {} } = answer(list.length);
      pendingResponses.add(response);
      setTimeout(() => {
        pendingResponses.delete(response);
        if (!response.destroyed) response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('ok');
      }, delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    answer: (path, answer) => answers.set(path, answer),
    received: (path) => [...(path === undefined ? arrivals : (requests.get(path) ?? []))],
    clear: () => {
      requests.clear();
      arrivals.length = 0;
    },
    waitFor: (path, count, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const list = requests.get(path) ?? [];
          if (list.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...list]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${path}: ${requests.get(path)?.length ?? 0} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    stop: async () => {
      for (const response of pendingResponses) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * The events of `requests`, one per event id, sorted: delivery is at least once (docs/webhooks.md),
 * and a receiver that treats a second request with the same `x-svc-event-id` as done sees these.
 * A second event for the same change under another id would show here twice.
 */
export function distinctEvents(requests: readonly ReceivedRequest[]): string[] {
  const byId = new Map<string, string>();
  for (const request of requests) byId.set(String(request.headers['x-svc-event-id']), (JSON.parse(request.body) as { event: string }).event);
  return [...byId.values()].sort();
}
