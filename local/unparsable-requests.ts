import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERRORS } from '#contract/errors';
import { STANDARD_HEADERS } from '#lambdas/http/headers';

/**
 * Node answers a request it cannot parse with a bare 400 or 431 and leaves CONNECT unanswered; the
 * stack's gateway answers in JSON, so these are answered in the contract's shape too, and the
 * connection closed: after a parse error nothing more on it can be trusted.
 */

const HEADERS_TOO_LARGE = 'HPE_HEADER_OVERFLOW';

function rawJsonResponse(status: number, message: string): string {
  const body = JSON.stringify({ error: message });
  const headers = { ...STANDARD_HEADERS, 'x-request-id': randomUUID(), 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client dropped, or one already answered, has no one left to tell.
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    socket.end(error.code === HEADERS_TOO_LARGE ? rawJsonResponse(431, ERRORS.headersTooLarge) : rawJsonResponse(400, ERRORS.malformedRequest));
  });
  server.on('connect', (_request, socket: Duplex) => socket.end(rawJsonResponse(405, ERRORS.methodNotAllowed)));
}
