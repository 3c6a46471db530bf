/**
 * The one place Binder reaches inside the MCP SDK's server: `McpServer` sets its own handler of
 * `tools/call` through its low-level server's `setRequestHandler` (when the first tool is
 * registered), and has no hook for a call to a tool it does not list. Binder answers some such
 * calls itself (a person's operation), and hands every other call to the SDK's handler unchanged.
 * Held to the pinned SDK by test/mcp/sdk-calls.test.ts.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type CallHandler = (request: { params: { name: string } }, extra: unknown) => unknown;

/**
 * Before the server's own handler of tools/call, `first` sees the tool's name: its result, if it
 * gives one, is the call's answer. Call before registering any tool.
 */
export function answerCallsFirst(server: McpServer, first: (name: string) => CallToolResult | undefined): void {
  const low = server.server;
  const set = low.setRequestHandler.bind(low) as (schema: unknown, handler: CallHandler) => void;
  (low as unknown as { setRequestHandler: typeof set }).setRequestHandler = (schema, handler) => {
    if (schema !== CallToolRequestSchema) return set(schema, handler);
    return set(schema, (request, extra) => first(String(request.params.name)) ?? handler(request, extra));
  };
}
