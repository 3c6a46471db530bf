#!/usr/bin/env node
/**
 * `binder-mcp [--dir FOLDER | --url URL]`: the MCP server over stdio. It only wires: the folder is
 * looked for at each call (a person may make it later), or each call goes to a binder over HTTP
 * (its REST, with the token); stdout carries JSON-RPC alone — anything that would print there
 * goes to stderr instead.
 */
import { fileURLToPath } from 'node:url';
import { format, parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { logLine } from '../keeper/log-line.js';
import { VERSION } from '../version.js';
import { askKeeper, waitFromEnv } from '../agent/ask.js';
import { findFolder, howToGetAFolder } from '../agent/find-folder.js';
import { createMcpServer } from '../mcp/mcp-server.js';
import { askOverHttp, remoteOf } from '../agent/remote-ask.js';

// Its lines quote folders and bugs: made safe, as every face's text.
const err = (text: string): void => void process.stderr.write(`${logLine(text)}\n`);
// stdout is the protocol's: a stray log line from anywhere would corrupt it.
for (const name of ['log', 'info', 'debug', 'warn', 'dir', 'table', 'trace'] as const) {
  (console as unknown as Record<string, unknown>)[name] = (...what: unknown[]) => err(format(...what));
}

const HELP = `binder-mcp [--dir FOLDER | --url URL [--token-file FILE]]: Binder's verbs as MCP tools, over stdin and stdout.
The folder: --dir FOLDER, else $BINDER_DIR, else the nearest .binder from the working directory up.
Or a binder over HTTP: --url URL (else $BINDER_URL), with the token in $BINDER_TOKEN or --token-file FILE.
BINDER_WAIT_MS: how long a tool waits for the keeper's answer (20000 by default).`;

let dir: string | undefined;
let url: string | undefined;
let tokenFile: string | undefined;
try {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' }, url: { type: 'string' }, 'token-file': { type: 'string' },
      help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'V' },
    },
    strict: true,
  });
  if (values.help || values.version) {
    err(values.help ? HELP : VERSION);
    process.exit(0);
  }
  dir = values.dir;
  url = values.url;
  tokenFile = values['token-file'];
} catch (error) {
  err(`binder-mcp: ${error instanceof Error ? error.message : String(error)}\n${HELP}`);
  process.exit(64);
}

const env = process.env;
const cwd = process.cwd();
const waitMs = waitFromEnv(env);
const remote = remoteOf({ ...(url !== undefined ? { url } : {}), ...(tokenFile !== undefined ? { tokenFile } : {}) }, env);
if (remote && 'problem' in remote) {
  err(`binder-mcp: ${remote.problem}`);
  process.exit(2);
}
const first = remote ? null : findFolder({ dir, env, cwd });
if (first && !first.found) err(`binder-mcp: ${howToGetAFolder(first.why)} Until then, every tool says so.`);

// `doctor` examines this process from the sandbox bundle beside this one, loaded when called.
const doctor = async (): Promise<string> => {
  const bundle = require(fileURLToPath(new URL('./binder-sandbox.js', import.meta.url))) as { doctorReport(ask: { dir?: string; url?: string }): Promise<string> };
  return bundle.doctorReport({ ...(dir !== undefined ? { dir } : {}), ...(remote ? { url: remote.base.href } : {}) });
};

const server = createMcpServer({
  doctor,
  ask: async (op, args) => {
    if (remote) return askOverHttp(remote, op, args, { waitMs });
    const found = findFolder({ dir, env, cwd });
    if (!found.found) return { outcome: 'no-folder', text: howToGetAFolder(found.why) };
    return askKeeper(found.folder, op, args, { waitMs });
  },
});
// The client closing stdin is the end of the session (asks already written stay the keeper's).
process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
// No top-level await: the bundle is CommonJS, which starts sooner.
server.connect(new StdioServerTransport()).catch((error: unknown) => {
  err(`binder-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(70);
});
