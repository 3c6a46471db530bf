/**
 * REST, derived from the catalog: `POST /api/<op>` with a JSON object of arguments, `GET
 * /api/<op>?k=v` for the operations that only read, `GET /api` for the operations an agent may
 * call with their JSON schemas (those MCP clients see). It never knows what an operation does: it
 * reads the arguments, calls the keeper's one dispatch as the token's agent, and shapes the answer.
 */
import type { Context, Hono } from 'hono';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { holdOf } from '../keeper/durations.js';
import { AGENT_OPERATIONS, operation } from '../keeper/operations.js';
import type { DirectAnswer } from '../keeper/direct-asks.js';
import type { Answer } from '../keeper/protocol.js';
import { toolSchema } from '../keeper/schemas.js';
import { BUSY_RETRY_S, TEXT_HEADER, bodyOf, jsonOf, refuse, statusOf } from './answers.js';
import { CHALLENGE, tokenGone, type HttpEnv } from './auth.js';

/** What an Idempotency-Key may be: the ledger's ids are 1 to 128 visible characters. */
const KEY = /^[\x21-\x7e]{1,128}$/;

/** What a route tells the log of an ask it answered, and through which face. */
export type Told = (caller: HttpEnv['Variables']['caller'], op: string, answer: DirectAnswer, face: 'REST' | 'MCP') => void;

/** The catalog as `GET /api` says it: built once. */
function catalog(): Answer {
  const data = AGENT_OPERATIONS.map((op) => ({
    name: op.name, title: op.title, describe: op.describe, example: op.example,
    method: op.readOnly ? 'GET' : 'POST', readOnly: op.readOnly, idempotent: op.idempotent,
    schema: toJsonSchemaCompat(toolSchema(op) as never, { strictUnions: true, pipeStrategy: 'input' }),
  }));
  return {
    ok: true,
    text: `${data.length} operations: POST /api/<op> with a JSON object of arguments, or GET /api/<op>?name=value for those that only read. `
      + `${data.map((op) => op.name).join(', ')}.`,
    data,
  };
}

/** `?a=1&b=2&b=3` → `{a: '1', b: ['2', '3']}`. */
export function queryArgs(url: string): Record<string, unknown> {
  const at = url.indexOf('?');
  const args: Record<string, unknown> = Object.create(null);
  if (at < 0) return args;
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) {
    const was = args[name];
    args[name] = was === undefined ? value : Array.isArray(was) ? [...was, value] : [was, value];
  }
  return args;
}

/**
 * A request's arguments: a GET's query, or a POST's body as one JSON object (empty: none).
 * Undefined when the body is not one JSON object: the caller refuses it, in its own words.
 */
/** A GET, or a HEAD (which Hono's GET routes answer too): a read, whose arguments are its query. */
export const reading = (c: Context): boolean => c.req.method === 'GET' || c.req.method === 'HEAD';

export async function requestArgs(c: Context): Promise<Record<string, unknown> | undefined> {
  if (reading(c)) return queryArgs(c.req.url);
  const text = await c.req.text();
  let args: unknown;
  try {
    args = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return undefined;
  }
  return args && typeof args === 'object' && !Array.isArray(args) ? args as Record<string, unknown> : undefined;
}

export function restRoutes(app: Hono<HttpEnv>, told: Told): void {
  const listed = catalog();
  app.get('/api', (c) => jsonOf(c, bodyOf(listed)));

  app.on(['GET', 'POST'], '/api/:op', async (c) => {
    const name = c.req.param('op');
    const spec = operation(name);
    const caller = c.get('caller');
    if (reading(c) && spec && !spec.readOnly) {
      return refuse(c, 405, `${name} changes the binder: POST it, with a JSON object of its arguments.`, { Allow: 'POST' });
    }
    const args = await requestArgs(c);
    if (!args) return refuse(c, 400, 'Send the arguments as one JSON object, for example {"list": "Batches"}.');
    const key = c.req.header('idempotency-key');
    if (key !== undefined && !KEY.test(key)) {
      return refuse(c, 400, 'An Idempotency-Key is 1 to 128 visible characters (a UUID is one).');
    }
    const wait = holdOf(name, args);
    const answer = await c.get('keeper').ask(caller.who, name, args, {
      ...(key !== undefined ? { key } : {}),
      // Only a wait is held long enough for its asker to go away meanwhile (the signal costs a little).
      ...(wait > 0 ? { wait, signal: c.req.raw.signal, ...(caller.vouch ? { vouch: caller.vouch } : {}) } : {}),
    });
    // A wait is answered minutes after its token was checked: one revoked meanwhile is told so,
    // not what changed since. An ask whose token's look went with it is answered as that look says.
    const gone = wait > 0 ? await tokenGone(c) : caller.settle ? await caller.settle() : null;
    if (gone !== null) return refuse(c, 401, gone, CHALLENGE);
    const status = statusOf(answer);
    told(caller, name, answer, 'REST');
    const headers: Record<string, string> = {};
    if (answer.replayed) headers['Idempotent-Replayed'] = 'true';
    if (status === 429) headers['Retry-After'] = String(BUSY_RETRY_S);
    return jsonOf(c, bodyOf(answer, c.req.header(TEXT_HEADER) === 'marked'), status, headers);
  });
}
