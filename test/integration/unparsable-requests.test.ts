import { connect } from 'node:net';
import { ERRORS } from '#contract/errors';
import { testEnv } from '../support/environment';

/**
 * Requests Node's HTTP parser cannot parse never reach a route; local mode must still answer them
 * as the stack's gateway does: a status, the contract's headers and a JSON error body.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Sends `request` byte for byte on a fresh connection and reads the answer until the server closes it. */
function sendRaw(request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(testEnv('baseUrl'));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body === '' ? undefined : JSON.parse(body) });
    });
    socket.write(request);
  });
}

const expectContractAnswer = (answer: RawAnswer, status: number, error: string): void => {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { error } });
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-request-id']).toMatch(/\S{8,}/);
};

test.each([
  ['an unknown method', 'FROB /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a control character in a header value', 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'],
  ['a space before a header colon', 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Bad : a\r\n\r\n'],
  ['a malformed request line', 'GET\r\n\r\n'],
])('%s gets a JSON 400', async (_label, request) => {
  expectContractAnswer(await sendRaw(request), 400, ERRORS.malformedRequest);
});

test('headers over the parser limit get a JSON 431', async () => {
  const request = `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
  expectContractAnswer(await sendRaw(request), 431, ERRORS.headersTooLarge);
});

test('CONNECT gets a JSON 405', async () => {
  expectContractAnswer(await sendRaw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 405, ERRORS.methodNotAllowed);
});

test('the server still answers well-formed requests afterwards', async () => {
  const answer = await sendRaw('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expect(answer.status).toBe(200);
});
