/**
 * Binder's verbs as MCP tools, one per agent operation of the catalog, over whatever transport
 * the caller connects. A refusal, a missing keeper or a missing folder comes back as an
 * `isError` result with a sentence; so does a call to a person's operation, which is listed
 * nowhere. Every text is made terminal-safe and names its next steps (given as data) as tool calls. It never
 * writes to stdout itself.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_OPERATIONS, onlyAPerson, personOperation } from '../keeper/operations.js';
import { toolSchema } from '../keeper/schemas.js';
import { safeAnswer, safeSentence } from '../keeper/terminal-safe.js';
import { VERSION } from '../version.js';
import { askArgs } from '../keeper/ask-args.js';
import { MCP_WAIT_MAX_MS, boundHold } from '../keeper/durations.js';
import type { AskOutcome } from '../keeper/protocol.js';
import { mcpText } from './mcp-steps.js';
import { answerCallsFirst } from './sdk-calls.js';
import { asWritten } from '../keeper/text-values.js';

/** Whether an operation's title holds its name among its words: the name said again. */
const repeatsName = (op: { name: string; title: string }): boolean => op.title.toLowerCase().split(/\s+/).includes(op.name);

/** Asks the keeper to do `op`: bound to a folder by whoever makes the server. */
export type AskKeeper = (op: string, args: Record<string, unknown>) => Promise<AskOutcome>;

export const INSTRUCTIONS = [
  'Binder keeps lists of records (work, tasks, customers, a roadmap…) that people and agents share.',
  'You ask; a keeper holds the binder and answers, knowing you by your folder. You see only the lists you were given.',
  'Records are numbered: give 12 or "#12". Start with `lists`, then `show` a list or `get` a record.',
  'Some lists have a gate: a record passes it only once a person approved it. Propose, then work on what was approved.',
  'A refusal (isError) says why and what to do instead; a next step reads as the tool call to make.',
].join('\n');

const text = (said: string, error: boolean): CallToolResult => ({
  content: [{ type: 'text', text: asWritten(error ? safeSentence(said) : safeAnswer(said)) }],
  ...(error ? { isError: true } : {}),
});

function toolResult(outcome: AskOutcome): CallToolResult {
  switch (outcome.outcome) {
    case 'answered':
      return outcome.ok ? text(mcpText(outcome.text, outcome.sentence), false) : text(`Not done: ${mcpText(outcome.text, outcome.sentence)}`, true);
    case 'nobody': case 'no-folder': case 'too-long':
      return text(outcome.text, true);
    case 'unknown':
      return text(`${outcome.text} Look before asking again (get, show), so as not to do it twice.`, true);
    default: {
      const never: never = outcome;
      throw new Error(`unknown outcome ${JSON.stringify(never)}`);
    }
  }
}

/**
 * A call to a person's operation (`approve`, `delete`…) is answered with whose operation it is and
 * how to have it done, instead of "not found"; the tool list stays the agent's.
 */
const personsCall = (name: string): CallToolResult | undefined => {
  const persons = AGENT_OPERATIONS.some((op) => op.name === name) ? undefined : personOperation(name.split(/[\s_]+/));
  return persons ? text(`Not done: ${onlyAPerson(persons)}`, true) : undefined;
};

/** `binder doctor` where this server runs: its report. */
export type Doctor = () => Promise<string>;

export const DOCTOR_DESCRIBE = 'What you reach that only a person should.';

/**
 * An MCP server whose tools ask through `ask`. Connect it to a transport to serve. `doctor` is
 * given only where the server runs beside the agent (stdio): over HTTP it would examine the keeper.
 */
export function createMcpServer({ ask, doctor }: { ask: AskKeeper; doctor?: Doctor }): McpServer {
  const server = new McpServer({ name: 'binder', title: 'Binder', version: VERSION }, { instructions: INSTRUCTIONS });
  answerCallsFirst(server, personsCall);
  for (const op of AGENT_OPERATIONS) {
    const tool = server.registerTool(
      op.name,
      {
        // A title that only repeats the name (`Show a list`, `Add a note`) costs every agent's context and tells it nothing.
        ...(!repeatsName(op) ? { title: op.title } : {}),
        description: op.describe,
        inputSchema: toolSchema(op, { holdMaxMs: MCP_WAIT_MAX_MS }),
        // Nothing an agent can do deletes: a person alone deletes. Destructive and idempotent mean
        // something only of a tool that changes the binder (MCP's ToolAnnotations): left out of
        // the reading tools, they cost no agent's context.
        annotations: op.readOnly
          ? { readOnlyHint: true, openWorldHint: false }
          : { readOnlyHint: false, destructiveHint: false, idempotentHint: op.idempotent, openWorldHint: false },
      },
      // A wait is held at most as long as an MCP client waits for a call's result.
      async (given) => toolResult(await ask(op.name, boundHold(op.name, askArgs(op, given as Record<string, unknown>), MCP_WAIT_MAX_MS))),
    );
    // Tasks `forbidden` is what an absent `execution` means: left out, it costs no agent's context.
    delete tool.execution;
  }
  if (doctor) {
    const tool = server.registerTool('doctor', { description: DOCTOR_DESCRIBE, annotations: { readOnlyHint: true, openWorldHint: false } },
      async () => text(await doctor(), false));
    delete tool.execution;
  }
  return server;
}
