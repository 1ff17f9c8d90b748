import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { testEnv } from '../support/environment';
import { startLocalServer, type LocalServer } from '../support/local-server';

/**
 * Local mode's servers answer this machine only: the API and pages, the local OpenID provider (a
 * fixed user), DynamoDB Local and the queue service (neither asks for credentials). Each is tried
 * at this machine's own non-loopback address, which the network a laptop sits on reaches;
 * LISTEN_HOST opens the API and pages on purpose, with a warning.
 */

jest.setTimeout(180_000);

/** An IPv4 address of this machine that is not loopback, if it has one. */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const portIn = (output: string, pattern: RegExp): number => Number(pattern.exec(output)?.[1]);

const onNetwork = ownAddress === undefined ? describe.skip : describe;

onNetwork(`at this machine's non-loopback address (${ownAddress ?? 'none: skipped'})`, () => {
  describe('by default', () => {
    let server: LocalServer;
    beforeAll(async () => {
      // Its own DynamoDB Local, and its own OpenID provider.
      server = await startLocalServer({ CREATE_ACCESS: 'signed-in' });
    });
    afterAll(() => server?.stop());

    test.each([
      ['the API and pages', /API ready at http:\/\/localhost:(\d+)/],
      ['the OpenID provider', /OpenID provider at http:\/\/localhost:(\d+)/],
      ['DynamoDB Local', /DYNAMODB_ENDPOINT=http:\/\/127\.0\.0\.1:(\d+)/],
      ['the queue service', /SQS_ENDPOINT=http:\/\/127\.0\.0\.1:(\d+)/],
    ])('%s: refused there, answered on loopback', async (_, pattern) => {
      const port = portIn(server.output(), pattern);
      expect(await accepts('127.0.0.1', port)).toBe(true);
      expect(await accepts(ownAddress ?? '', port)).toBe(false);
    });
  });

  describe('LISTEN_HOST=0.0.0.0', () => {
    let server: LocalServer;
    beforeAll(async () => {
      server = await startLocalServer({ DYNAMODB_ENDPOINT: testEnv('dynamodbEndpoint'), LISTEN_HOST: '0.0.0.0' });
    });
    afterAll(() => server?.stop());

    test('opens the API and pages there, and warns', async () => {
      expect(await accepts(ownAddress ?? '', portIn(server.output(), /API ready at http:\/\/localhost:(\d+)/))).toBe(true);
      expect(server.output()).toMatch(/warning: LISTEN_HOST=0\.0\.0\.0/);
    });
  });
});
