import { once } from 'node:events';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy between the functions and DynamoDB Local that makes a write's answer go missing
 * AFTER DynamoDB Local has applied it, as DynamoDB on AWS may: the selected call is forwarded and
 * answered upstream, and then its client gets a 500 (which the SDK retries), a dropped
 * connection (ECONNRESET, which it retries too) or no answer at all (the SDK's request timeout
 * ends the attempt and it retries) instead of that answer. Every other call passes
 * through untouched. Hand-written, not an off-the-shelf proxy: the fault depends on the call's
 * body and must wait for the upstream answer, which proxy libraries do not offer.
 */

export type FaultKind = '500' | 'reset' | 'silence';

/** A DynamoDB call as the proxy sees it: the operation (from X-Amz-Target) and its JSON body. */
export interface DynamoDbCall {
  operation: string;
  body: Record<string, unknown>;
}

export interface FaultProxy {
  endpoint: string;
  /**
   * The next call that `selects` holds for is applied upstream and then answered with `kind`; with
   * `times`, so are that many such calls in a row (to outlast the SDK's attempts).
   */
  failNext(kind: FaultKind, selects: (call: DynamoDbCall) => boolean, times?: number): void;
  /** Whether a fault is armed that no call has matched yet. */
  armed(): boolean;
  stop(): Promise<void>;
}

/** The body DynamoDB sends with a 500: the SDK reads the error type from `__type`. */
const INTERNAL_SERVER_ERROR = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
  message: 'Internal server error (injected by the fault proxy after the write was applied)',
});

async function bodyOf(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function callOf(incoming: IncomingMessage, body: Buffer): DynamoDbCall {
  const target = String(incoming.headers['x-amz-target'] ?? '');
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    // Not a JSON call: it cannot be selected.
  }
  return { operation: target.slice(target.indexOf('.') + 1), body: parsed };
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  let fault: { kind: FaultKind; selects: (call: DynamoDbCall) => boolean; times: number } | undefined;

  const forward = async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    const body = await bodyOf(incoming);
    const selected = fault?.selects(callOf(incoming, body)) ? fault : undefined;
    if (selected && --selected.times === 0) fault = undefined;
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const upstreamRequest = request(
        { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers, agent },
        resolve,
      );
      upstreamRequest.on('error', reject);
      upstreamRequest.end(body);
    });
    if (!selected) {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
      return;
    }
    // The whole answer has arrived: DynamoDB Local has applied the write.
    await bodyOf(answer);
    if (selected.kind === 'reset') {
      incoming.socket.destroy();
      return;
    }
    // The client gives up on its own; stop() closes what is left.
    if (selected.kind === 'silence') return;
    outgoing.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' }).end(INTERNAL_SERVER_ERROR);
  };

  const server = createServer((incoming, outgoing) => {
    forward(incoming, outgoing).catch(() => incoming.socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    failNext: (kind, selects, times = 1) => {
      fault = { kind, selects, times };
    },
    armed: () => fault !== undefined,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
      agent.destroy();
    },
  };
}
