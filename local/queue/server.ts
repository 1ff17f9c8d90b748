import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { text } from 'node:stream/consumers';
import { QueueError } from './errors';
import { findOperation } from './operations';
import type { QueueRegistry } from '../queue-service';

/** SQS's AWS JSON 1.0 protocol: POST / with `x-amz-target: AmazonSQS.<Action>`; errors also carry `x-amzn-query-error`, which the SDK reads first. */

const CONTENT_TYPE = 'application/x-amz-json-1.0';

function sendJson(response: ServerResponse, status: number, headers: Record<string, string>, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...headers, 'content-type': CONTENT_TYPE, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new QueueError('InvalidParameterValue', 'The request body is not valid JSON.');
  }
}

async function answer(request: IncomingMessage, body: string, registry: QueueRegistry, signal: AbortSignal): Promise<object> {
  const target = request.headers['x-amz-target'];
  if (request.method !== 'POST' || typeof target !== 'string') {
    throw new QueueError('UnsupportedOperation', "The local queue service speaks SQS's AWS JSON 1.0 protocol only: POST with x-amz-target.");
  }
  const operation = findOperation(target);
  if (!operation) throw new QueueError('UnsupportedOperation', `The local queue service does not support the action ${target}.`);
  return operation(parseJson(body), { registry, signal });
}

/** Answers each request; `stopSignal` ends long polls when the service stops. */
export function queueRequestListener(registry: QueueRegistry, stopSignal: AbortSignal): RequestListener {
  return (request, response) => {
    void (async () => {
      const requestId = randomUUID();
      const hangUp = new AbortController();
      response.on('close', () => hangUp.abort());
      try {
        const body = await text(request);
        const output = await answer(request, body, registry, AbortSignal.any([stopSignal, hangUp.signal]));
        sendJson(response, 200, { 'x-amzn-requestid': requestId }, output);
      } catch (error) {
        if (error instanceof QueueError) {
          sendJson(
            response,
            error.status,
            { 'x-amzn-requestid': requestId, 'x-amzn-query-error': `${error.queryCode};Sender` },
            { __type: `com.amazonaws.sqs#${error.code}`, message: error.message },
          );
        } else {
          sendJson(response, 500, { 'x-amzn-requestid': requestId }, { __type: 'com.amazonaws.sqs#InternalError', message: String(error) });
        }
      }
    })();
  };
}
