import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runReferenceOperation, type ReferenceOperation } from './reference-operations';

/**
 * The reference: a bare Node HTTP server that makes a route's DynamoDB calls
 * (bench/reference-operations.ts) and answers what they read as JSON, `{}` when they read nothing.
 * No API Gateway event, no middleware, no validation, no response shaping: what any HTTP API in
 * front of the same calls would cost on this machine at the least, the floor of the warm-latency
 * and 5 MiB budgets. A child process of the bench, as local mode is; it prints its address once
 * it listens.
 */

async function readOperation(request: IncomingMessage): Promise<ReferenceOperation> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReferenceOperation;
}

const server = createServer((request, response) => {
  readOperation(request)
    .then(runReferenceOperation)
    .then(
      (answer) => {
        const body = Buffer.from(JSON.stringify(answer));
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        response.end(body);
      },
      (error: unknown) => {
        const body = JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
        response.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      },
    );
});

server.listen(0, '127.0.0.1', () => {
  console.log(`reference server at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
