/**
 * One ask of a binder over HTTP (`binder --url URL`, `binder-mcp --url URL`): a POST to
 * URL/api/<op> with the token of $BINDER_TOKEN or --token-file, answered as through a folder. A
 * change carries an Idempotency-Key (its ask id: `--ask-id` gives it) and is asked again with it
 * when its answer was lost (a keeper restarting, a connection cut), so it is never done twice. Light: node:http or node:https is
 * loaded at the first ask (global fetch would load undici, several times slower to start); it
 * never sends a token in clear to another machine, nor reads one from a file others can read.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Http from 'node:http';
import { holdOf } from '../keeper/durations.js';
import { operation } from '../keeper/operations.js';
import { WAIT_MS } from '../keeper/protocol.js';
import { sentenceIn } from '../keeper/answer-steps.js';
import type { AskOutcome } from './ask.js';
import { newAskId } from './ask-id.js';
import type { Sentence } from '../store/index.js';

/** How an ask over HTTP ended: as through a folder, and `understood: false` when the server did not understand it. */
export type RemoteOutcome = AskOutcome & { understood?: false };

export interface Remote {
  /** The binder's address, with a trailing slash: `https://binder.example.org/`. */
  base: URL;
  token: string;
  /** `http://localhost…`: the name is resolved at the ask, and asked only at a loopback address it resolves to. */
  viaLocalhost?: true;
  /** The Host said, where `base` is the address `localhost` resolved to. */
  hostHeader?: string;
}

/** One address a name resolves to, as node:dns says it. */
export interface Resolved { address: string; family: number }

export interface RemoteOptions {
  want?: 'json' | undefined;
  waitMs?: number;
  now?: () => number;
  newId?: () => string;
  /** Resolves `localhost` (node:dns by default): a test gives another resolver. */
  lookup?: (name: string) => Promise<Resolved[]>;
}

/**
 * A loopback address, as the URL parser left it: an IPv4 address in 127.0.0.0/8 (the parser turns
 * every host whose last label is a number into one, or refuses it) or ::1. A name is none, whatever
 * it begins with (`127.0.0.1.evil.example`): only `localhost`, resolved, may come to one.
 */
export const loopbackAddress = (host: string): boolean => /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1';

/**
 * Where and as whom to ask over HTTP, null to ask through a folder, or the sentence that says what
 * is missing. `--url` first; `$BINDER_URL` unless a folder was given with `--dir`.
 */
export function remoteOf(given: { url?: string; tokenFile?: string; dir?: string }, env: NodeJS.ProcessEnv): Remote | null | { problem: string } {
  const url = given.url ?? (given.dir === undefined ? env.BINDER_URL : undefined);
  if (url === undefined || url === '') return given.tokenFile ? { problem: '--token-file goes with --url URL (or $BINDER_URL).' } : null;
  let base: URL;
  try {
    base = new URL(url.endsWith('/') ? url : `${url}/`);
  } catch {
    return { problem: `"${url.slice(0, 80)}" is not a URL: give the binder's address, like https://binder.example.org.` };
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return { problem: `${base.protocol} is not http: or https:: give the binder's address, like https://binder.example.org.` };
  if (base.username || base.password || base.search) return { problem: 'The binder\'s URL holds no name, password nor query: the token goes in $BINDER_TOKEN or --token-file.' };
  const host = base.hostname.replace(/^\[|\]$/g, '');
  const viaLocalhost = base.protocol === 'http:' && host === 'localhost';
  if (base.protocol === 'http:' && !loopbackAddress(host) && !viaLocalhost) {
    return { problem: `http:// would send the token in clear to ${host}: use https://${base.host}${base.pathname === '/' ? '' : base.pathname}.` };
  }
  let token = env.BINDER_TOKEN ?? '';
  if (given.tokenFile) {
    try {
      const mode = statSync(given.tokenFile).mode;
      if (mode & 0o077) {
        return { problem: `The token file ${given.tokenFile} may be read by others (mode ${(mode & 0o777).toString(8)}): a token is a password; chmod 600 it.` };
      }
      token = readFileSync(given.tokenFile, 'utf8').trim();
    } catch (error) {
      return { problem: `The token file ${given.tokenFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).` };
    }
  }
  token = token.trim();
  if (!token) return { problem: `No token to ask ${base.origin} with: set $BINDER_TOKEN, or give --token-file FILE. A person makes one with binder admin token add NAME.` };
  return { base, token, ...(viaLocalhost ? { viaLocalhost: true as const } : {}) };
}

const lookupAll = async (name: string): Promise<Resolved[]> => {
  const { lookup } = createRequire(import.meta.url)('node:dns/promises') as typeof import('node:dns/promises');
  return lookup(name, { all: true });
};

/**
 * `http://localhost` resolved once, and the address the ask goes to: one of loopback, or a
 * sentence when the name comes to anything else (or to nothing) — then no token is sent.
 */
async function pinLocalhost(remote: Remote, lookup: (name: string) => Promise<Resolved[]>): Promise<Remote | { problem: string }> {
  let found: Resolved[] = [];
  try {
    found = await lookup('localhost');
  } catch {
    // Resolved to nothing: refused below.
  }
  const first = found[0];
  if (!first || !found.every((a) => loopbackAddress(a.address))) {
    return { problem: `localhost does not resolve to a loopback address here (${found.map((a) => a.address).join(', ') || 'to none'}): http:// would send the token in clear; use http://127.0.0.1${remote.base.port ? `:${remote.base.port}` : ''}, or https://.` };
  }
  const base = new URL(remote.base);
  base.hostname = first.family === 6 ? `[${first.address}]` : first.address;
  return { base, token: remote.token, hostHeader: remote.base.host };
}

/** Errors after which the request surely never reached a keeper. */
const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

interface Reply { status: number; body: string }

function post(remote: Remote, op: string, body: string, key: string | undefined, ms: number): Promise<Reply> {
  const require = createRequire(import.meta.url);
  const https = remote.base.protocol === 'https:';
  const client = require(https ? 'node:https' : 'node:http') as typeof Http;
  return new Promise((resolve, reject) => {
    const req = client.request(new URL(`api/${encodeURIComponent(op)}`, remote.base), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${remote.token}`,
        ...(remote.hostHeader ? { host: remote.hostHeader } : {}),
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        // The text as the keeper wrote it, as through a folder: each face finds its steps in it.
        'binder-text': 'marked',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      timeout: ms,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Asks the binder at `remote` to do `op` with `args`; a change lost on the way is asked again with its key. */
export async function askOverHttp(given: Remote, op: string, args: Record<string, unknown>, options: RemoteOptions = {}): Promise<RemoteOutcome> {
  const pinned = given.viaLocalhost ? await pinLocalhost(given, options.lookup ?? lookupAll) : given;
  if ('problem' in pinned) return { outcome: 'no-folder', text: pinned.problem };
  const remote = pinned;
  const now = options.now ?? Date.now;
  const hold = holdOf(op, args);
  const end = now() + (options.waitMs ?? WAIT_MS) + hold;
  // A change is asked with a key, and again with the same key: done once, whatever is lost.
  const key = operation(op)?.readOnly === false || hold > 0 ? (options.newId ?? newAskId)() : undefined;
  const body = JSON.stringify(args);
  const where = given.base.origin;
  let maybeSent = false;
  let pause = 50;
  let last = '';
  for (;;) {
    const left = end - now();
    if (left <= 0) break;
    let reply: Reply;
    try {
      reply = await post(remote, op, body, key, left);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!UNSENT.has(code)) maybeSent = true;
      last = code || (error as Error).message;
      await sleep(Math.min(pause, Math.max(0, end - now())));
      pause = Math.min(pause * 2, 1000);
      continue;
    }
    let answer: { ok?: unknown; text?: unknown; data?: unknown; steps?: unknown; sentence?: unknown } = {};
    try {
      answer = JSON.parse(reply.body) as typeof answer;
    } catch {
      // Not Binder's answer (a proxy's page): said by its status below.
    }
    const text = typeof answer.text === 'string' ? answer.text : `${where} answered ${reply.status} without Binder's answer.`;
    // Stopping, or its disk full: asked again (with its key) until the time is up.
    if (reply.status === 503 || reply.status === 502 || reply.status === 504) {
      maybeSent ||= reply.status === 503;
      last = `${reply.status}: ${text}`;
      await sleep(Math.min(pause, Math.max(0, end - now())));
      pause = Math.min(pause * 2, 1000);
      continue;
    }
    if (reply.status >= 500) return { outcome: 'nobody', text: `The binder at ${where} failed (${reply.status}): ${text}` };
    // Its steps as data, for MCP to write as tool calls (checked there): put back in their places in the text.
    const words = Array.isArray(answer.sentence) ? answer.sentence as Sentence : sentenceIn(text, answer.steps);
    const sentence = words ? { sentence: words } : {};
    if (reply.status === 200 && answer.ok === true) {
      return { outcome: 'answered', ok: true, text, ...sentence, ...(options.want === 'json' && answer.data !== undefined && answer.data !== null ? { data: answer.data } : {}) };
    }
    if (reply.status === 400 || reply.status === 404) return { outcome: 'answered', ok: false, text, ...sentence, understood: false };
    return { outcome: 'answered', ok: false, text, ...sentence };
  }
  const why = last ? ` (${last})` : '';
  // Its key is its id: asked again with it (binder --ask-id), it is answered without being done twice.
  if (maybeSent && key) {
    return {
      outcome: 'unknown',
      id: key,
      text: `Not known whether this was done: no answer came in time from the binder at ${where}${why}, and it may have done it without its answer reaching you.`,
    };
  }
  return {
    outcome: 'nobody',
    text: `Nobody answers at ${where}${why}: nothing was changed; ask a person to start the binder's keeper, or try again.`,
  };
}
