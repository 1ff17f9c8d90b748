import { once } from 'node:events';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy between the functions and DynamoDB Local that makes a write's answer go missing
 * AFTER DynamoDB Local has applied it, as DynamoDB on AWS may: the selected call is forwarded and
 * answered upstream, and then its client gets a 500 (which the SDK retries), a dropped
 * connection (ECONNRESET, which it retries too) or no answer at all (the SDK's request timeout
 * ends the attempt and it retries) instead of that answer; or it fails the call with a 500
 * without forwarding it, or holds it unanswered without forwarding it. Every other call passes
 * through untouched. It can also delay every answer (a slow DynamoDB) or refuse every
 * connection (an outage). Hand-written, not an off-the-shelf proxy: the fault depends on the call's
 * body and must wait for the upstream answer, which proxy libraries do not offer.
 */

/**
 * '500', 'reset' and 'silence' come after DynamoDB Local applied the call; 'unapplied' is a 500
 * for a call never forwarded (DynamoDB failed it before applying it); 'hang' is a call never
 * forwarded and never answered (a DynamoDB that does not answer), which the client's request
 * timeout ends.
 */
export type FaultKind = '500' | 'reset' | 'silence' | 'unapplied' | 'hang';

/** A DynamoDB call as the proxy sees it: the operation (from X-Amz-Target) and its JSON body. */
export interface DynamoDbCall {
  operation: string;
  body: Record<string, unknown>;
}

/**
 * Faults for a stream of calls, counted per class of call (`classify`; undefined: never faulted)
 * and, if `writeOf` is given, per write within it: the n-th call of a class (or write) gets
 * `pattern[n mod length]` ('pass' lets it through), so that every class gets the pattern's first
 * fault on its first call whatever the order of arrival. `silence`
 * is only given to a call's first attempt (the SDK's `amz-sdk-request` header) and never to a
 * batch (whose attempts wait 4 s): those get a 500 in its place, so that each call loses at most
 * one 2 s request timeout.
 */
export interface FaultPlan {
  classify: (call: DynamoDbCall) => string | undefined;
  pattern: readonly (FaultKind | 'pass')[];
  /** A pattern of its own for some classes. */
  patternOf?: (callClass: string) => readonly (FaultKind | 'pass')[] | undefined;
  /**
   * Which write of its class a call is (for example, the item it deletes): each is counted apart,
   * so that another writer's calls of the class, arriving in between, do not take this write's
   * place in the pattern. Unset: a class is counted as one.
   */
  writeOf?: (call: DynamoDbCall) => string;
  /** Told of each fault given, with the class of the call it was given to. */
  onFault?: (kind: FaultKind, callClass: string) => void;
}

export interface FaultProxy {
  endpoint: string;
  /**
   * The next call that `selects` holds for is applied upstream and then answered with `kind`; with
   * `times`, so are that many such calls in a row (to outlast the SDK's attempts). Several may be
   * armed at once, each for calls of its own.
   */
  failNext(kind: FaultKind, selects: (call: DynamoDbCall) => boolean, times?: number): void;
  /** Whether a fault is armed that no call has matched yet. */
  armed(): boolean;
  /** Drops every armed fault; answers how many calls they had left to fail. */
  disarm(): number;
  /** Gives faults by `plan` until called again (undefined: none). */
  planFaults(plan: FaultPlan | undefined): void;
  /**
   * Every answer (faulted or not) is relayed `ms` after its call arrived, or as soon as DynamoDB
   * Local has answered if that took longer: a DynamoDB that takes `ms` to answer, whatever DynamoDB
   * Local's own time on a busy machine adds; 0 for no wait.
   */
  answerAfter(ms: number): void;
  /** While down, every connection is closed as it arrives: DynamoDB cannot be reached. */
  setDown(down: boolean): void;
  stop(): Promise<void>;
}

/** The body DynamoDB sends with a 500: the SDK reads the error type from `__type`. */
const INTERNAL_SERVER_ERROR = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
  message: 'Internal server error (injected by the fault proxy)',
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

const isFirstAttempt = (incoming: IncomingMessage): boolean => /attempt=1\b/.test(String(incoming.headers['amz-sdk-request'] ?? ''));

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  let armedFaults: { kind: FaultKind; selects: (call: DynamoDbCall) => boolean; times: number }[] = [];
  let plan: { plan: FaultPlan; calls: Map<string, number> } | undefined;
  let answerAfterMs = 0;
  let down = false;

  /** The fault this call gets, if any: an armed one first, else the plan's. */
  const faultFor = (incoming: IncomingMessage, call: DynamoDbCall): FaultKind | undefined => {
    const armed = armedFaults.find((candidate) => candidate.selects(call));
    if (armed) {
      if (--armed.times === 0) armedFaults = armedFaults.filter((candidate) => candidate !== armed);
      return armed.kind;
    }
    const callClass = plan?.plan.classify(call);
    if (!plan || callClass === undefined) return undefined;
    const { onFault } = plan.plan;
    const pattern = plan.plan.patternOf?.(callClass) ?? plan.plan.pattern;
    const counted = `${callClass}\u0000${plan.plan.writeOf?.(call) ?? ''}`;
    const count = plan.calls.get(counted) ?? 0;
    plan.calls.set(counted, count + 1);
    const planned = pattern[count % pattern.length] ?? 'pass';
    if (planned === 'pass') return undefined;
    const kind = planned === 'silence' && (!isFirstAttempt(incoming) || call.operation.startsWith('Batch')) ? '500' : planned;
    onFault?.(kind, callClass);
    return kind;
  };

  const forward = async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    const arrivedAt = performance.now();
    const body = await bodyOf(incoming);
    const kind = faultFor(incoming, callOf(incoming, body));
    const selected = kind ? { kind } : undefined;
    if (selected?.kind === 'unapplied') {
      outgoing.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' }).end(INTERNAL_SERVER_ERROR);
      return;
    }
    // The client gives up on its own; stop() closes what is left.
    if (selected?.kind === 'hang') return;
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const upstreamRequest = request(
        { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers, agent },
        resolve,
      );
      upstreamRequest.on('error', reject);
      upstreamRequest.end(body);
    });
    // The whole answer has arrived: DynamoDB Local has applied the write.
    const answerBody = await bodyOf(answer);
    const wait = answerAfterMs - (performance.now() - arrivedAt);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!selected) {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers).end(answerBody);
      return;
    }
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
  server.on('connection', (socket) => {
    if (down) socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    failNext: (kind, selects, times = 1) => {
      armedFaults.push({ kind, selects, times });
    },
    armed: () => armedFaults.length > 0,
    disarm: () => {
      const left = armedFaults.reduce((sum, fault) => sum + fault.times, 0);
      armedFaults = [];
      return left;
    },
    planFaults: (next) => {
      plan = next && { plan: next, calls: new Map() };
    },
    answerAfter: (ms) => {
      answerAfterMs = ms;
    },
    setDown: (next) => {
      down = next;
      // Connections the client keeps alive would bypass the check on arrival.
      if (down) server.closeAllConnections();
    },
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
      agent.destroy();
    },
  };
}
