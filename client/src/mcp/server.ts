import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { version } from '../../package.json';
import type { Command } from '../cli/commands';
import { registerRequestTools } from './request-tools';
import { registerSecretTools } from './secret-tools';
import { Session } from './session';
import { RequestState, stateDir } from './state';

/** `onetime mcp`: an assistant shares and receives secrets file to file, seeing only links and metadata. */

export function createServer(session: Session): McpServer {
  const server = new McpServer({ name: 'onetime', version });
  registerSecretTools(server, session);
  registerRequestTools(server, session);
  return server;
}

const mcp: Command = {
  options: [],
  positionals: { min: 0, max: 0, names: '' },
  async run({ settings, io }) {
    const session = new Session(settings, new RequestState(stateDir(process.env)), (line) => io.stderr.write(`onetime mcp: ${line}\n`));
    const server = createServer(session);
    const closed = new Promise<void>((resolve) => (server.server.onclose = resolve));
    // Standard input ending is the client going away: the transport itself does not watch for it.
    io.stdin.once('end', () => void server.close());
    await server.connect(new StdioServerTransport(io.stdin, io.stdout));
    await closed;
  },
};

export const MCP_COMMANDS: Readonly<Record<string, Command>> = { mcp };
