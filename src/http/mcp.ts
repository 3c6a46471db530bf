/**
 * MCP over Streamable HTTP at `/mcp`, stateless: the tools, schemas, annotations and instructions
 * of `binder-mcp` (the same factory), each call asked of the keeper as the token's agent. A
 * server is built once and lent to one request at a time (building one costs about a
 * millisecond); each request has a transport of its own, as the SDK requires without sessions.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Context } from 'hono';
import { createMcpServer } from '../mcp/mcp-server.js';
import { holdOf } from '../keeper/durations.js';
import type { Keeper } from '../keeper/keeper-types.js';
import type { HttpEnv } from './auth.js';
import type { RateLimit } from './rate.js';
import type { Told } from './rest.js';
import { BODY_MAX } from './limits.js';

interface Lent { server: McpServer; caller: HttpEnv['Variables']['caller'] | null; keeper: Keeper | null }

/**
 * Servers kept for the next requests; more may be lent at once, and are dropped after. As many as
 * requests commonly in flight: changes wait for their commit, so 64 clients keep ~64 lent, and
 * with 16 kept each wave built ~48 again (MCP changes fell from 2,281/s with 8 clients to 1,006/s
 * with 64). One costs ~230 KiB.
 */
const KEPT = 64;

export function mcpHandler(told: Told, rate: RateLimit): { handle(c: Context<HttpEnv>): Promise<Response>; close(): Promise<void> } {
  const idle: Lent[] = [];
  const all = new Set<Lent>();
  const make = (): Lent => {
    const lent: Lent = { server: null as unknown as McpServer, caller: null, keeper: null };
    lent.server = createMcpServer({
      ask: async (op, args) => {
        const { caller, keeper } = lent;
        if (!caller || !keeper) return { outcome: 'nobody', text: 'This call came after its request ended: nothing was asked.' };
        const wait = holdOf(op, args);
        const answer = await keeper.ask(caller.who, op, args, { wait, ...(wait > 0 && caller.vouch ? { vouch: caller.vouch } : {}) });
        // A wait is answered long after its token was checked: one revoked meanwhile is told so.
        const gone = wait > 0 ? (await caller.recheck?.()) ?? null : null;
        if (gone !== null) return { outcome: 'answered', ok: false, text: gone };
        told(caller, op, answer, 'MCP');
        return {
          outcome: 'answered', ok: answer.ok, text: answer.text,
          ...(answer.data !== undefined ? { data: answer.data } : {}), ...(answer.sentence ? { sentence: answer.sentence } : {}),
        };
      },
    });
    all.add(lent);
    return lent;
  };
  return {
    async handle(c) {
      const lent = idle.pop() ?? make();
      lent.caller = c.get('caller');
      lent.keeper = c.get('keeper');
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: BODY_MAX,
      });
      try {
        await lent.server.connect(transport);
        // Read here (its size was bounded before), so that the transport needs no web Request's body.
        let parsedBody: unknown;
        try {
          parsedBody = JSON.parse(await c.req.text());
        } catch {
          return c.json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON.' }, id: null }, 400);
        }
        // A batch of messages is as many requests: the one its token was charged for, and the rest now.
        const more = Array.isArray(parsedBody) ? parsedBody.length - 1 : 0;
        const wait = more > 0 ? rate.take(c.get('caller').rateKey, more) : 0;
        if (wait > 0) {
          const seconds = Math.ceil(wait / 1000);
          const message = more + 1 > rate.burst
            ? `Too many calls in one request: ${more + 1}, where this token may make ${rate.burst} at once; send fewer.`
            : `Too many requests with this token: these ${more + 1} calls in one are ${more + 1} requests; ask again in ${seconds} s.`;
          return c.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, 429, { 'Retry-After': String(seconds) });
        }
        return await transport.handleRequest(c.req.raw, { parsedBody });
      } finally {
        // The answer is whole (JSON, not a stream): the server is free for the next request.
        await transport.close();
        lent.caller = null;
        lent.keeper = null;
        if (idle.length < KEPT) idle.push(lent);
        else all.delete(lent);
      }
    },
    async close() {
      idle.length = 0;
      await Promise.all([...all].map((lent) => lent.server.close()));
      all.clear();
    },
  };
}
