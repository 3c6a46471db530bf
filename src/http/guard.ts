/**
 * Who may reach the server at all, before any token is looked at: the `Host` a request names must
 * be one the server answers to (so that a page whose name was rebound to this address — DNS
 * rebinding — cannot reach a server listening on loopback: 421), and a browser's `Origin` must be
 * the server's own (403). Behind a proxy (`--behind-proxy`), the proxy's X-Forwarded-Host and
 * X-Forwarded-Proto say what the browser saw. It never trusts X-Forwarded-* otherwise.
 */
import type { MiddlewareHandler } from 'hono';
import { refuse } from './answers.js';

export interface GuardOptions {
  /** Host names (no port) the server answers to, lower case. */
  hosts: ReadonlySet<string>;
  /** The server speaks TLS itself. */
  tls: boolean;
  /** A proxy in front says, in X-Forwarded-*, what the client asked for. */
  behindProxy: boolean;
  /** The address people reach it by through a proxy: a browser's Origin may be it. */
  publicUrl?: string;
}

/** `example.org:4180` → `example.org`; `[::1]:4180` → `::1`; null when it is not a host. */
export function hostName(given: string | undefined | null): string | null {
  if (!given) return null;
  const text = given.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) return bracketed[1]!;
  const plain = /^([a-z0-9.-]+?)\.?(?::(\d{1,5}))?$/.exec(text);
  return plain ? plain[1]! : null;
}

/** `https://Example.org:443` → `https://example.org`: an origin as a browser compares it. */
export function sameOrigin(a: string, b: string): boolean {
  const norm = (origin: string): string | null => {
    try {
      const url = new URL(origin);
      return `${url.protocol}//${url.host}`;
    } catch {
      return null;
    }
  };
  const x = norm(a);
  return x !== null && x === norm(b);
}

const first = (value: string | undefined): string | undefined => value?.split(',')[0]?.trim() || undefined;

export function guard(options: GuardOptions): MiddlewareHandler {
  return async (c, next) => {
    const forwarded = options.behindProxy ? first(c.req.header('x-forwarded-host')) : undefined;
    const host = forwarded ?? c.req.header('host');
    const name = hostName(host);
    // A load balancer's health check names the address it dialled: /healthz says nothing of the binder.
    if (c.req.path !== '/healthz' && (name === null || !options.hosts.has(name))) {
      const shown = (host ?? '').replace(/[^\x21-\x7e]/g, '?').slice(0, 80);
      return refuse(c, 421, `This server does not answer to the host "${shown}": a person adds a name it is reached by with --allow-host NAME.`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      const proto = options.behindProxy ? first(c.req.header('x-forwarded-proto')) ?? (options.tls ? 'https' : 'http') : options.tls ? 'https' : 'http';
      if (!sameOrigin(origin, `${proto}://${host ?? ''}`) && !(options.publicUrl && sameOrigin(origin, options.publicUrl))) {
        return refuse(c, 403, 'A page of another site may not use this binder: requests with a foreign Origin are refused.');
      }
    }
    return next();
  };
}
