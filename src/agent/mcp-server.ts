/**
 * Binder's verbs as MCP tools, one per agent operation of the catalog, over whatever transport
 * the caller connects. A refusal, a missing keeper or a missing folder comes back as an
 * `isError` result with a sentence. It never writes to stdout itself.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_OPERATIONS } from '../keeper/operations.js';
import { toolSchema } from '../keeper/schemas.js';
import { VERSION } from '../version.js';
import { askArgs } from '../keeper/ask-args.js';
import { MCP_WAIT_MAX_MS, boundHold } from '../keeper/durations.js';
import type { AskOutcome } from './ask.js';

/** Asks the keeper to do `op`: bound to a folder by whoever makes the server. */
export type AskKeeper = (op: string, args: Record<string, unknown>) => Promise<AskOutcome>;

export const INSTRUCTIONS = [
  'Binder keeps lists of records (batches of work, tasks, customers, a roadmap…) that people and agents work on together.',
  'You ask; a keeper holds the binder and answers, knowing you by your folder. You see only the lists you were given.',
  'Records are named by number: #12 (give "12" or "#12"). Start with `lists`, then `show` a list or `get` a record.',
  'Some lists have a gate: a record passes it only once a person approved it. Propose, then work on what was approved.',
  'A refusal (isError) says why and what to do instead.',
].join('\n');

function toolResult(outcome: AskOutcome): CallToolResult {
  switch (outcome.outcome) {
    case 'answered':
      return outcome.ok
        ? { content: [{ type: 'text', text: outcome.text }] }
        : { content: [{ type: 'text', text: `Not done: ${outcome.text}` }], isError: true };
    case 'nobody': case 'no-folder': case 'too-long':
      return { content: [{ type: 'text', text: outcome.text }], isError: true };
    case 'unknown':
      return { content: [{ type: 'text', text: `${outcome.text} Look before asking again (get, show), so as not to do it twice.` }], isError: true };
    default: {
      const never: never = outcome;
      throw new Error(`unknown outcome ${JSON.stringify(never)}`);
    }
  }
}

/** An MCP server whose tools ask through `ask`. Connect it to a transport to serve. */
export function createMcpServer({ ask }: { ask: AskKeeper }): McpServer {
  const server = new McpServer({ name: 'binder', title: 'Binder', version: VERSION }, { instructions: INSTRUCTIONS });
  for (const op of AGENT_OPERATIONS) {
    const tool = server.registerTool(
      op.name,
      {
        title: op.title,
        description: op.describe,
        inputSchema: toolSchema(op),
        annotations: {
          readOnlyHint: op.readOnly,
          // Nothing an agent can do deletes: a person alone deletes.
          destructiveHint: false,
          idempotentHint: op.idempotent,
          openWorldHint: false,
        },
      },
      // A wait is held at most as long as an MCP client waits for a call's result.
      async (given) => toolResult(await ask(op.name, boundHold(op.name, askArgs(op, given as Record<string, unknown>), MCP_WAIT_MAX_MS))),
    );
    // Tasks `forbidden` is what an absent `execution` means: left out, it costs no agent's context.
    delete tool.execution;
  }
  return server;
}
