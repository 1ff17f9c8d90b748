import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer } from '#client/mcp/server';
import { Session } from '#client/mcp/session';
import { RequestState } from '#client/mcp/state';
import { testEnv } from '#test/support/environment';

/**
 * The protocol checks of @modelcontextprotocol/conformance that apply to a server of tools alone.
 * The suite connects over Streamable HTTP only, so the test serves the very server `onetime mcp`
 * runs on stdio (createServer) over HTTP on loopback. Its other scenarios call tools, resources or
 * prompts of the suite's own reference server, or test HTTP itself, which `onetime mcp` has not.
 */

const CONFORMANCE = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list'];

let http: Server;
let url: string;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onetime-conformance-'));
  const session = new Session({ apiUrl: testEnv('baseUrl'), apiKey: undefined }, new RequestState(folder), () => undefined);
  // One server and transport per request: the stateless pattern of the SDK's Streamable HTTP transport.
  http = createHttpServer((request, response) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = createServer(session);
    response.on('close', () => void server.close());
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await new Promise((resolve) => http?.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

test.each(SCENARIOS)('passes the conformance scenario %s', async (scenario) => {
  // Its own folder: the suite writes its results beside where it runs.
  const { stdout } = await promisify(execFile)(process.execPath, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario], { cwd: folder });
  expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
});
