/**
 * The HTTP face as a factory: `createHttpApp({ keeper, … })` is a Hono app, testable without a
 * socket (`app.request()`); `listen.ts` only serves it. Its routes are derived from the catalog:
 * MCP over Streamable HTTP at `/mcp`, REST at `/api/<op>`, the stream of changes at
 * `/api/changes`, `/healthz` for a load balancer. Every request passes the host and origin guard,
 * and every one under `/api` and `/mcp` a token; the person's page (`/`, `/page/…`) a session
 * opened by a login link, never a token.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Keeper } from '../keeper/keeper-types.js';
import { countedLine, scrubbed } from '../keeper/log-line.js';
import { terminalSafe } from '../keeper/terminal-safe.js';
import { refusalOf, refuse, statusOf } from './answers.js';
import { UNAVAILABLE_TEXT } from '../keeper/protocol.js';
import { bearer, noTokenInUrl, type HttpEnv, type Orgs } from './auth.js';
import { changesHandler } from './changes.js';
import { guard } from './guard.js';
import { BODY_MAX } from './limits.js';
import { mcpHandler } from './mcp.js';
import { pageApiRoutes } from './page-api.js';
import { pageRoutes, securityHeaders } from './page-files.js';
import { hasSessionCookie, overTls, pageGuards, sessionRequired, sessionRoutes } from './person.js';
import type { SignIn } from './oidc.js';
import { signInRoutes, type OnSignIn } from './oidc-routes.js';
import { createRateLimit, DEFAULT_RATE, type Rate } from './rate.js';
import { restRoutes, type Told } from './rest.js';

export interface HttpAppOptions {
  keeper: Keeper;
  /** Host names the server answers to (lower case, no port): its own addresses and --allow-host. */
  hosts: Iterable<string>;
  /** The server speaks TLS itself (its own origin is https). */
  tls?: boolean;
  /** A proxy in front: its X-Forwarded-Host and X-Forwarded-Proto are believed. */
  behindProxy?: boolean;
  /** The address people reach it by through a proxy (an origin): sign-in's redirect and the page's links use it. */
  publicUrl?: string;
  /** Per token (200 a second, bursts of 1,000). */
  rate?: Rate;
  /** What went wrong (a failure, a token revoked as leaked): one line each; never a token. */
  log?: (line: string) => void;
  /** One line per ask answered, with the token's prefix (never the token). */
  told?: (line: string) => void;
  now?: () => number;
  /** How long a line said of what clients did (a request cut short) stands for the others like it: they are counted, then said as one (60 s). */
  clientLinesMs?: number;
  /** Where the page's built files are (dist/page by default). */
  pageDir?: string;
  /** People sign in through this identity provider (no login links then); a person's access token is a caller too. */
  signIn?: SignIn;
  /** Called at each sign-in through the provider, before its session opens (a refusal opens none). */
  onSignIn?: OnSignIn;
  /** Each organisation's binder, where people sign in through a provider: every request acts on its own. */
  orgs?: Orgs;
}

export interface HttpApp {
  app: Hono<HttpEnv>;
  /** Lets go of the MCP servers lent to requests. */
  close(): Promise<void>;
}

const clip = (text: string, max: number): string => {
  const chars = Array.from(terminalSafe(text));
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
};

export function createHttpApp(options: HttpAppOptions): HttpApp {
  const { keeper } = options;
  const now = options.now ?? Date.now;
  const started = now();
  // Every line the face writes passes the one scrubber: a token, a key or a cookie never reaches the log.
  const log = scrubbed(options.log ?? (() => {}));
  const say = options.told ? scrubbed(options.told) : undefined;
  const time = (): string => new Date(now()).toTimeString().slice(0, 8);
  const told: Told = (caller, op, answer, face) => say?.(
    `${time()} ${clip(caller.who.name, 40)} ${clip(op, 40)} ${answer.replayed ? 'answered again' : answer.ok ? 'done' : 'refused'} over ${face} `
    + `(${caller.prefix}${answer.ok ? '' : `, ${statusOf(answer)}`}): ${clip(answer.text, 160)}`,
  );
  // What a client did is said in one line, never with a stack: and when many come, counted.
  const cutShort = countedLine(log, (n) => `binder http: ${n} more request${n === 1 ? ' was' : 's were'} cut short by ${n === 1 ? 'its client' : 'their clients'} before ${n === 1 ? 'its' : 'their'} body ended`, options.clientLinesMs);
  const app = new Hono<HttpEnv>();
  app.onError((error, c) => {
    if (c.req.raw.signal.aborted || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      cutShort(`binder http: ${c.req.method} ${clip(c.req.path, 80)} was cut short by its client before its body ended`);
      return refuse(c, 400, 'The request ended before its body did: nothing was done.');
    }
    // The binder's database cannot be reached now (a server store): nothing was done; try again.
    // An organisation's binder refused (a name it cannot be): a sentence, nothing done.
    const refused = refusalOf(error);
    if (refused) return refuse(c, 403, refused.text);
    if (error instanceof Error && error.name === 'StoreUnavailable') {
      log(`binder http: ${c.req.method} ${clip(c.req.path, 80)}: ${error.message}`);
      return refuse(c, 503, UNAVAILABLE_TEXT, { 'Retry-After': '5' });
    }
    log(`binder http: ${c.req.method} ${clip(c.req.path, 80)} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return refuse(c, 500, 'The server failed on this request (its log says why).');
  });
  app.notFound((c) => refuse(c, 404, 'Nothing here: agents use /mcp (MCP) or /api (REST; GET /api lists the operations).'));

  app.use('*', securityHeaders);
  app.use('*', guard({ hosts: new Set([...options.hosts].map((h) => h.toLowerCase())), tls: options.tls === true, behindProxy: options.behindProxy === true, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) }));
  // A token anywhere in a URL, on any route, is a leaked one: refused, and revoked, before anything else.
  app.use('*', noTokenInUrl(keeper, log, options.orgs));
  // Answered to anyone, under any Host (a page rebound to this address too): nothing of where the store is.
  app.get('/healthz', (c) => c.text(`ok\nup ${Math.round((now() - started) / 1000)} s\n`));

  const rate = createRateLimit(options.rate ?? DEFAULT_RATE, now);
  const tooLarge = (c: Context): Response => refuse(c, 413, `Too large: a request sends at most ${BODY_MAX / 1024 / 1024} MiB.`);
  const counted = bodyLimit({ maxSize: BODY_MAX, onError: tooLarge });
  // A body is counted as it comes only when its length is not said: a said length is the body's
  // (HTTP reads no more), and looking at no stream spares a request the making of one.
  const sized: MiddlewareHandler<HttpEnv> = (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && /^\d{1,15}$/.test(length.trim())) return Number(length) > BODY_MAX ? Promise.resolve(tooLarge(c)) : next();
    return counted(c, next);
  };
  // `/api/*` is `/api` too: each request passes these once.
  for (const path of ['/api/*', '/mcp']) app.use(path, bearer(keeper, rate, options.signIn, options.orgs), sized);

  const mcp = mcpHandler(told, rate);
  app.post('/mcp', (c) => mcp.handle(c));
  app.on(['GET', 'DELETE'], '/mcp', (c) => c.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server keeps no session; POST each message.' }, id: null },
    405, { Allow: 'POST' },
  ));

  app.get('/api/changes', changesHandler());
  restRoutes(app, told);

  const person = { tls: options.tls === true, behindProxy: options.behindProxy === true, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}), rate, ...(options.signIn ? { signIn: options.signIn } : {}), ...(options.orgs ? { orgs: options.orgs } : {}) };
  app.use('/', ...pageGuards(options.signIn));
  app.use('/page/*', ...pageGuards(options.signIn), sized);
  app.use('/page/api/*', sessionRequired(keeper, person));
  app.use('/page/webhooks', sessionRequired(keeper, person));
  // An EventSource sends no header of the page's: its half of the session comes in the address.
  app.use('/page/events', sessionRequired(keeper, person, true));
  const streams = pageApiRoutes(app, keeper);
  sessionRoutes(app, keeper, { ...person, signedOut: streams.signedOut });
  if (options.signIn) signInRoutes(app, keeper, options.signIn, person, options.onSignIn);
  pageRoutes(app, async (c) => hasSessionCookie(c, overTls(c, person), keeper), options.pageDir, options.signIn?.provider);
  return { app, close: () => mcp.close() };
}
