import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * `onetime mcp` as an assistant's host runs it: the linked bin as a child process, driven by the
 * SDK's own client over stdio. Every result and everything it printed on stderr is kept, for
 * scans that no plaintext got out.
 */

const ONETIME = path.resolve(__dirname, '../../node_modules/.bin/onetime');

export interface McpUnderTest {
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  client: Client;
  close(): Promise<void>;
}

/** What every server of a file answered and printed, for the scans. */
export const seen: { results: CallToolResult[]; stderr: string } = { results: [], stderr: '' };

export async function startMcp(env: Record<string, string>): Promise<McpUnderTest> {
  const transport = new StdioClientTransport({ command: ONETIME, args: ['mcp'], env, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (seen.stderr += chunk.toString()));
  const client = new Client({ name: 'onetime-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    call: async (name, args) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      seen.results.push(result);
      return result;
    },
    close: () => client.close(),
  };
}

/** The JSON a tool answered, or its error text. */
export function answerOf(result: CallToolResult): Record<string, unknown> {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return result.isError ? { error: text } : (JSON.parse(text) as Record<string, unknown>);
}

/** Each of `forbidden` that appears in a result or on stderr. */
export function leaked(forbidden: readonly string[]): string[] {
  const everything = JSON.stringify(seen.results) + seen.stderr;
  return forbidden.filter((text) => everything.includes(text) || everything.includes(JSON.stringify(text).slice(1, -1)));
}
