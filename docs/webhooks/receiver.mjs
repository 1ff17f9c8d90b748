// A webhook receiver for the one-time-secret service, in Node with no dependencies.
// Run: WEBHOOK_SECRET=whsec_... PORT=8080 node receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET = process.env.WEBHOOK_SECRET ?? '';
const TOLERANCE_MS = 300_000; // `t` is in MILLISECONDS since the epoch, not seconds.

function verify(rawBody, header, secret, now = Date.now()) {
  if (!secret || typeof header !== 'string') return false;
  const parts = new Map();
  const signatures = [];
  for (const part of header.split(',')) {
    const [key, value] = [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)];
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
    else if (key === 't') parts.set('t', value);
  }
  const t = parts.get('t');
  if (!/^\d+$/.test(t ?? '') || !(Math.abs(now - Number(t)) <= TOLERANCE_MS)) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.`).update(rawBody).digest();
  return signatures.some((candidate) => timingSafeEqual(expected, candidate));
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const rawBody = Buffer.concat(chunks); // verify the raw bytes, before any JSON parsing
    if (!verify(rawBody, request.headers['x-svc-signature'], SECRET)) {
      response.writeHead(401).end();
      return;
    }
    // Answer at once; do the work afterwards. Deliveries may repeat: x-svc-event-id is the same on every retry.
    response.writeHead(200).end();
    const event = JSON.parse(rawBody.toString('utf8'));
    console.log(`verified ${event.event} ${request.headers['x-svc-event-id']}`);
  });
});
server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
