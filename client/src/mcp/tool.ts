import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { OnetimeError } from '../errors';
import type { Session } from './session';

/** One tool of the server: its schemas, and what it does with checked arguments. */
export interface Tool<Input extends z.ZodRawShape> {
  name: string;
  /** For the model: what the tool does, and that no plaintext comes back. */
  description: string;
  input: Input;
  output: z.ZodRawShape;
  run(args: ShapeOutput<Input>, session: Session, signal: AbortSignal): Promise<object>;
}

/** A failure as a tool error: the library's messages carry no secrets (errors.ts); anything else is named by kind. */
function refusal(error: unknown): CallToolResult {
  const text = error instanceof OnetimeError ? error.message : `unexpected failure (${error instanceof Error ? error.name : 'unknown'})`;
  return { isError: true, content: [{ type: 'text', text }] };
}

export function registerTool<Input extends z.ZodRawShape>(server: McpServer, session: Session, tool: Tool<Input>): void {
  const inputSchema: ZodRawShapeCompat = tool.input;
  server.registerTool(tool.name, { description: tool.description, inputSchema, outputSchema: tool.output }, async (args, { signal }) => {
    try {
      // The SDK checked the arguments against tool.input before calling: they are its output.
      const result = { ...(await tool.run(args as ShapeOutput<Input>, session, signal)) };
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    } catch (error) {
      return refusal(error);
    }
  });
}
