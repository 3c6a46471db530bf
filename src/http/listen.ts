/**
 * Serving the HTTP app on a socket (node:http, or node:https with --tls-cert/--tls-key), with the
 * bounds a slow or greedy client meets: the time to send headers and the whole request, the size
 * of headers and body. It decides nothing about a request: the app does. Loaded only by a keeper
 * started with --http (its own bundle), never on an agent's path.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { hostname, networkInterfaces } from 'node:os';
import { getRequestListener } from '@hono/node-server';
import { openBinders, type Binders } from '../keeper/binders.js';
import { scrubbed } from '../keeper/log-line.js';
import type { Keeper } from '../keeper/keeper-types.js';
import { Refused, type StoreSpec } from '../store/index.js';
import { createHttpApp } from './app.js';
import type { Orgs } from './auth.js';
import type { OnSignIn } from './oidc-routes.js';
import { discoverSignIn, type SignIn } from './oidc.js';
import { HEADERS_MAX, HEADERS_MS, KEEP_ALIVE_MS, REQUEST_MS } from './limits.js';
import { isLoopback, isWildcard, type HttpPlan } from './plan.js';

export interface Serving {
  /** Where it listens, as a client would write it: `http://127.0.0.1:4180`. */
  url: string;
  port: number;
  /** The identity provider people sign in with (its host), when there is one. */
  provider?: string;
  close(): Promise<void>;
}

/** Bounds a test may shorten (a slow client's test must not take ten seconds). */
export interface Bounds { headersMs: number; requestMs: number; checkMs: number; clientLinesMs: number }

/** The names a request may give as its Host: the address served, its loopback names, --allow-host. */
export function servedHosts(plan: HttpPlan): Set<string> {
  const names = new Set(plan.allowHosts.map((name) => name.toLowerCase()));
  const host = plan.host.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopback(host) || isWildcard(host)) for (const name of ['localhost', '127.0.0.1', '::1']) names.add(name);
  if (!isWildcard(host)) names.add(host);
  else {
    for (const addresses of Object.values(networkInterfaces())) for (const a of addresses ?? []) names.add(a.address.toLowerCase());
    names.add(hostname().toLowerCase());
  }
  return names;
}

function read(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Refused(`binder cannot read the ${what} ${path} (${why}).`, `binder ne peut pas lire ${what === 'certificate' ? 'le certificat' : 'la clé'} ${path} (${why}).`);
  }
}

/** Where the face's lines go: what went wrong, and (unless quiet) a line per ask answered. */
export interface HttpLog {
  log(line: string): void;
  told?: (line: string) => void;
  /** At each sign-in through the provider, before its session opens. */
  onSignIn?: OnSignIn;
  /** The store served, as opened: where people sign in, each organisation's binder is beside it. */
  spec?: StoreSpec;
}

/** Each organisation's keeper, an agent token's organisation, and a person recorded in theirs (at most once a minute each). */
export function orgsOf(binders: Binders, now: () => number = Date.now): Orgs {
  const recorded = new Map<string, number>();
  return {
    of: async (org) => (await binders.of(org)).keeper,
    tokenOrg: (token) => binders.tokenOrg(token),
    async record(who, org) {
      const key = `${org}\n${who.id}`;
      if ((recorded.get(key) ?? 0) > now()) return;
      await (await binders.of(org)).store.signIn(who);
      if (recorded.size >= 10_000) recorded.clear();
      recorded.set(key, now() + 60_000);
    },
  };
}

/** Serves `keeper` over HTTP as `plan` says; resolves once it listens. Refused with a sentence if it cannot. */
export async function startHttp(keeper: Keeper, plan: HttpPlan, { log: given, told, onSignIn, spec }: HttpLog, bounds?: Partial<Bounds>): Promise<Serving> {
  const log = scrubbed(given);
  let signIn: SignIn | undefined;
  let binders: Binders | undefined;
  let signedIn = onSignIn;
  if (plan.oidc) {
    // Before anything listens: a provider that cannot be reached is said now, not at the first sign-in.
    signIn = await discoverSignIn(plan.oidc);
    await keeper.store.markSignIn(signIn.issuer);
    // The key that seals sign-ins under way, made now if it is not yet: no sign-in's start writes the store.
    await keeper.store.signInKey();
    if (spec) {
      // The store served is the service's: each organisation acts in a binder of its own beside it.
      const opened = await openBinders(spec, { log });
      binders = opened;
      signedIn = async (who, org) => {
        await (await opened.of(org)).store.signIn(who);
        await onSignIn?.(who, org);
      };
    }
  } else {
    const issuer = await keeper.store.signInIssuer();
    if (issuer) {
      throw new Refused(`This store is a signed-in service's (people sign in through ${issuer}): start it with --oidc-issuer ${issuer} --oidc-client-id ID, or serve another store.`,
        `Ce magasin est celui d'un service où l'on se connecte (par ${issuer}) : lancez-le avec --oidc-issuer ${issuer} --oidc-client-id ID, ou servez un autre magasin.`);
    }
  }
  const { app, close: closeApp } = createHttpApp({
    keeper, hosts: servedHosts(plan), tls: plan.tls !== undefined, behindProxy: plan.behindProxy, ...(plan.publicUrl ? { publicUrl: plan.publicUrl } : {}), log, ...(told ? { told } : {}),
    ...(plan.rate ? { rate: plan.rate } : {}), ...(signIn ? { signIn } : {}), ...(signedIn ? { onSignIn: signedIn } : {}),
    ...(binders ? { orgs: orgsOf(binders) } : {}), ...(bounds?.clientLinesMs !== undefined ? { clientLinesMs: bounds.clientLinesMs } : {}),
  });
  const options = {
    maxHeaderSize: HEADERS_MAX,
    headersTimeout: bounds?.headersMs ?? HEADERS_MS,
    requestTimeout: bounds?.requestMs ?? REQUEST_MS,
    keepAliveTimeout: KEEP_ALIVE_MS,
    // How often the two timeouts above are looked at: a slow client is cut within this of them.
    connectionsCheckingInterval: bounds?.checkMs ?? 1000,
  };
  const server: Server = plan.tls
    ? createHttpsServer({ ...options, cert: read(plan.tls.cert, 'certificate'), key: read(plan.tls.key, 'key') })
    : createHttpServer(options);
  server.on('request', getRequestListener(app.fetch, {
    errorHandler: (error) => {
      log(`binder http: a request failed: ${error instanceof Error ? error.message : String(error)}`);
    },
  }));
  const host = plan.host.replace(/^\[|\]$/g, '');
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      const why = error.code === 'EADDRINUSE' ? 'another program listens there'
        : error.code === 'EACCES' ? 'this user may not listen on that port'
          : error.code === 'EADDRNOTAVAIL' ? 'this machine has no such address' : error.message;
      reject(new Refused(`binder cannot listen on ${plan.host}:${plan.port}: ${why}.`, `binder ne peut pas écouter sur ${plan.host}:${plan.port} : ${why}.`));
    };
    server.once('error', failed);
    server.listen(plan.port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : plan.port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${plan.tls ? 'https' : 'http'}://${shown}:${port}`,
    port,
    ...(signIn ? { provider: signIn.provider } : {}),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Waits held open end with the keeper: their askers ask again, with their keys, of the next one.
      server.closeAllConnections();
      await closed;
      await closeApp();
      await binders?.close();
    },
  };
}
