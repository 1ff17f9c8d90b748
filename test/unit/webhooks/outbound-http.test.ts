import http from 'node:http';
import { isIP, type AddressInfo, type LookupFunction } from 'node:net';
import { postWebhook, type PostWebhookOptions } from '#lambdas/webhooks/outbound-http';

type Received = { method: string | undefined; url: string | undefined; headers: http.IncomingHttpHeaders; body: string };

type TestServer = { port: number; received: Received[]; connections: () => number };

const servers: http.Server[] = [];

/** A receiver on 127.0.0.1 that records every request and every TCP connection it sees. */
async function startServer(respond: (res: http.ServerResponse) => void): Promise<TestServer> {
  const received: Received[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      respond(res);
    });
  });
  server.on('connection', () => (connections += 1));
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { port: (server.address() as AddressInfo).port, received, connections: () => connections };
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((closed) => {
          server.closeAllConnections();
          server.close(closed);
        }),
    ),
  );
});

/** A resolver that answers every name with `addresses`, asynchronously like dns.lookup. */
function fakeResolver(addresses: string[]): { lookup: LookupFunction; names: string[] } {
  const names: string[] = [];
  const lookup: LookupFunction = (hostname, _options, callback) => {
    names.push(hostname);
    setImmediate(() =>
      callback(
        null,
        addresses.map((address) => ({ address, family: isIP(address) })),
      ),
    );
  };
  return { lookup, names };
}

const LOCAL: PostWebhookOptions = { allowLoopback: true, timeoutMs: 5_000, maxResponseBytes: 4_096 };
const post = (url: string, options: Partial<PostWebhookOptions> = {}) =>
  postWebhook({ url, body: '{"n":1}', headers: { 'content-type': 'application/json' } }, { ...LOCAL, ...options });

describe('postWebhook: what the receiver answers', () => {
  test('a 2xx is a success, and the receiver gets the exact body and headers', async () => {
    const server = await startServer((res) => res.writeHead(204).end());
    const body = '{"type":"secret.viewed","note":"grüße ✓"}';
    const headers = { 'content-type': 'application/json', 'x-svc-signature': 't=1,v1=ab', 'x-svc-event-id': 'evt_1' };

    const outcome = await postWebhook({ url: `http://127.0.0.1:${server.port}/hook?a=1`, body, headers }, LOCAL);

    expect(outcome).toEqual({ ok: true, status: 204 });
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({ method: 'POST', url: '/hook?a=1', body });
    expect(server.received[0]?.headers).toMatchObject({
      ...headers,
      'content-length': String(Buffer.byteLength(body)),
      host: `127.0.0.1:${server.port}`,
    });
  });

  test('a 500 is a failure carrying the status', async () => {
    const server = await startServer((res) => res.writeHead(500).end('boom'));
    expect(await post(`http://127.0.0.1:${server.port}/hook`)).toEqual({ ok: false, status: 500, reason: 'status 500' });
  });

  test.each([302, 307])('a %i is a failure, and its Location is never requested', async (status) => {
    const server = await startServer((res) => res.writeHead(status, { location: '/elsewhere' }).end());
    expect(await post(`http://127.0.0.1:${server.port}/hook`)).toEqual({
      ok: false,
      status,
      reason: `redirect ${status} not followed`,
    });
    expect(server.received.map(({ url }) => url)).toEqual(['/hook']);
  });

  test('no answer within timeoutMs is a failure, returned at the deadline', async () => {
    // The receiver answers only once the post has returned: a wall-clock bound failed under load
    // (1.66 s for a 1.5 s bound); the order of events cannot.
    let answer: (() => void) | undefined;
    const server = await startServer((res) => (answer = () => res.writeHead(200).end()));
    expect(await post(`http://127.0.0.1:${server.port}/hook`, { timeoutMs: 300 })).toEqual({
      ok: false,
      reason: 'timed out after 300 ms',
    });
    // Under load the deadline can pass before the request has even reached the receiver.
    answer?.();
  });

  test('a body streamed without end is read up to maxResponseBytes, then the connection is closed', async () => {
    let written = 0;
    let writtenWhenClosed: number | undefined;
    const server = await startServer((res) => {
      res.writeHead(200);
      const stream = setInterval(() => {
        res.write(Buffer.alloc(1_024, 'x'));
        written += 1_024;
      }, 5);
      res.on('close', () => {
        clearInterval(stream);
        writtenWhenClosed = written;
      });
    });

    const outcome = await post(`http://127.0.0.1:${server.port}/hook`, { timeoutMs: 5_000, maxResponseBytes: 4_096 });

    expect(outcome).toEqual({ ok: true, status: 200 });
    await new Promise((closed) => setTimeout(closed, 50));
    // Within 5 s the server would have written about a megabyte; it was cut off after a few KB.
    expect(writtenWhenClosed).toBeLessThanOrEqual(16 * 1_024);
  });

  test('a 2xx whose body is still trickling at the deadline counts as answered (the status decides)', async () => {
    let closedByClient = false;
    const server = await startServer((res) => {
      res.writeHead(200);
      const trickle = setInterval(() => res.write('.'), 20);
      res.on('close', () => {
        clearInterval(trickle);
        closedByClient = !res.writableFinished;
      });
    });

    // The body never ends: an answer at all is the one at the deadline.
    expect(await post(`http://127.0.0.1:${server.port}/hook`, { timeoutMs: 300 })).toEqual({ ok: true, status: 200 });
    await new Promise((closed) => setTimeout(closed, 50));
    expect(closedByClient).toBe(true);
  });

  test('the deadline covers name resolution too', async () => {
    const lookup: LookupFunction = () => undefined;
    expect(await post('https://receiver.test/hook', { lookup, timeoutMs: 300 })).toEqual({
      ok: false,
      reason: 'timed out after 300 ms',
    });
  });

  test('a 2xx whose connection is cut mid-body is still a success, returned at once', async () => {
    const server = await startServer((res) => {
      res.writeHead(200, { 'content-length': '100' }).write('partial');
      setTimeout(() => res.destroy(), 20);
    });
    // A deadline far off, and a bound half-way to it: no load delays the cut by 30 s.
    const started = Date.now();
    expect(await post(`http://127.0.0.1:${server.port}/hook`, { timeoutMs: 60_000 })).toEqual({ ok: true, status: 200 });
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test('a closed port is a connection failure', async () => {
    const probe = http.createServer();
    await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready));
    const { port } = probe.address() as AddressInfo;
    await new Promise((closed) => probe.close(closed));
    expect(await post(`http://127.0.0.1:${port}/hook`)).toEqual({
      ok: false,
      reason: 'connection refused (ECONNREFUSED)',
    });
  });

  test('a resolver error is reported by its code, without the message that names the host', async () => {
    const lookup: LookupFunction = (hostname, _options, callback) =>
      setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []));
    expect(await post('https://hooks.example.com/hook?token=s3cret', { lookup, allowLoopback: false })).toEqual({
      ok: false,
      reason: 'host not found (ENOTFOUND)',
    });
  });
});

describe('postWebhook: where it may connect', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer((res) => res.writeHead(200).end());
  });

  describe('without allowLoopback', () => {
    test.each([
      ['http://127.0.0.1:PORT/hook', 'scheme not allowed'],
      ['https://127.0.0.1:PORT/hook', 'address not allowed'],
      ['https://127.9.9.9:PORT/hook', 'address not allowed'],
      ['https://[::1]:PORT/hook', 'address not allowed'],
      ['https://[::ffff:127.0.0.1]:PORT/hook', 'address not allowed'],
      ['https://0x7f.1:PORT/hook', 'address not allowed'],
      ['https://2130706433:PORT/hook', 'address not allowed'],
      ['https://localhost:PORT/hook', 'address not allowed'],
      ['https://receiver.localhost.:PORT/hook', 'address not allowed'],
      ['https://169.254.169.254:PORT/latest/meta-data', 'address not allowed'],
      ['https://10.0.0.1:PORT/hook', 'address not allowed'],
      ['https://[fd00::1]:PORT/hook', 'address not allowed'],
      ['https://user:pw@hooks.example.com/hook', 'user-info not allowed'],
      ['ftp://hooks.example.com/hook', 'scheme not allowed'],
      ['not a URL', 'invalid URL'],
    ])('refuses %s (%s) without resolving or connecting', async (url, reason) => {
      const resolver = fakeResolver(['127.0.0.1']);
      const outcome = await post(url.replace('PORT', String(server.port)), {
        allowLoopback: false,
        lookup: resolver.lookup,
      });
      expect(outcome).toEqual({ ok: false, reason });
      expect(resolver.names).toEqual([]);
      expect(server.connections()).toBe(0);
    });

    test('refuses a name that resolves to a public and a private address', async () => {
      const resolver = fakeResolver(['93.184.215.14', '10.0.0.1']);
      const outcome = await post('https://receiver.test/hook', { allowLoopback: false, lookup: resolver.lookup });
      expect(outcome).toEqual({ ok: false, reason: 'address not allowed' });
      expect(resolver.names).toEqual(['receiver.test']);
    });

    test('refuses a name that resolves to loopback', async () => {
      const resolver = fakeResolver(['127.0.0.1']);
      const outcome = await post(`https://receiver.test:${server.port}/hook`, {
        allowLoopback: false,
        lookup: resolver.lookup,
      });
      expect(outcome).toEqual({ ok: false, reason: 'address not allowed' });
      expect(server.connections()).toBe(0);
    });
  });

  describe('with allowLoopback', () => {
    test('connects a name to exactly the address the resolver returned', async () => {
      const resolver = fakeResolver(['127.0.0.1']);
      const outcome = await post(`http://receiver.test:${server.port}/hook`, { lookup: resolver.lookup });
      expect(outcome).toEqual({ ok: true, status: 200 });
      expect(resolver.names).toEqual(['receiver.test']);
      expect(server.received[0]?.headers.host).toBe(`receiver.test:${server.port}`);
    });

    test('refuses a name when any of its addresses is neither public nor loopback', async () => {
      const resolver = fakeResolver(['127.0.0.1', '10.0.0.1']);
      const outcome = await post(`https://receiver.test:${server.port}/hook`, { lookup: resolver.lookup });
      expect(outcome).toEqual({ ok: false, reason: 'address not allowed' });
      expect(server.connections()).toBe(0);
    });

    test('plain http goes only to loopback, even for a name that resolves to a public address', async () => {
      const resolver = fakeResolver(['93.184.215.14']);
      expect(await post('http://receiver.test/hook', { lookup: resolver.lookup })).toEqual({
        ok: false,
        reason: 'address not allowed',
      });
    });

    test.each(['http://10.0.0.1/hook', 'https://169.254.169.254/latest/meta-data', 'https://[fe80::1]/hook'])('still refuses %s', async (url) => {
      expect(await post(url)).toEqual({ ok: false, reason: 'address not allowed' });
    });
  });
});
