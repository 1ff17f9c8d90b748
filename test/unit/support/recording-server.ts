import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP endpoint standing in for an AWS JSON service: it records every request as received
 * and answers with what the test's `answer` says, as DynamoDB and SQS do on the wire.
 */

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RecordingServer {
  endpoint: string;
  requests: ReceivedRequest[];
  answer: (request: ReceivedRequest) => Answer;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const recording: RecordingServer = {
    endpoint: '',
    requests: [],
    answer: () => ({ status: 200, body: {} }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      recording.requests.push(request);
      const reply = recording.answer(request);
      response.writeHead(reply.status, { 'content-type': 'application/x-amz-json-1.0', ...reply.headers });
      response.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  recording.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return recording;
}
