/**
 * What `--http [HOST:]PORT` and its companions ask for, read and checked before anything listens:
 * a non-loopback address needs TLS, or a proxy said to be in front. Pure and light (no HTTP
 * library): `binder serve` and `binder tui` read their options with it.
 */
import { readFileSync, statSync } from 'node:fs';
import type { HttpFlagValues } from './flags.js';
import type { Rate } from './rate.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4180;

export interface HttpPlan {
  host: string;
  port: number;
  tls?: { cert: string; key: string };
  behindProxy: boolean;
  allowHosts: string[];
  /** The address people and agents reach it by, through a proxy (`https://binder.example`): an origin, no path. */
  publicUrl?: string;
  rate?: Rate;
  /** People sign in through this identity provider (OpenID Connect); without it, login links. */
  oidc?: OidcPlan;
}

/** What `--oidc-*` ask for; the secret read from its file or the environment, never from argv. */
export interface OidcPlan {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  orgClaim?: string;
  allowOrgs: string[];
  audience?: string;
}

/** The options as given on the command line (flags.ts declares them). */
export type HttpFlags = HttpFlagValues;

/** The client's secret: from its file (readable by its owner alone), else BINDER_OIDC_CLIENT_SECRET, else none. */
function secretOf(file: string | undefined, env: NodeJS.ProcessEnv): { secret?: string } | { problem: string } {
  if (file === undefined) {
    const said = env.BINDER_OIDC_CLIENT_SECRET?.trim();
    return said ? { secret: said } : {};
  }
  try {
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
      return { problem: `The client secret's file ${file} may be read by others: chmod 600 ${file}, then start again.` };
    }
    const secret = readFileSync(file, 'utf8').trim();
    return secret ? { secret } : { problem: `The client secret's file ${file} is empty.` };
  } catch (error) {
    return { problem: `binder cannot read the client secret's file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).` };
  }
}

/** `--oidc-*` read: null without --oidc-issuer, or the sentence that says what is wrong. */
function oidcPlan(flags: HttpFlags, env: NodeJS.ProcessEnv): OidcPlan | null | { problem: string } {
  const companions = [flags.oidcClientId && '--oidc-client-id', flags.oidcClientSecretFile && '--oidc-client-secret-file',
    flags.oidcOrgClaim && '--oidc-org-claim', flags.oidcAllowOrg?.length && '--oidc-allow-org', flags.oidcAudience && '--oidc-audience'].filter(Boolean);
  if (!flags.oidcIssuer) return companions.length ? { problem: `${companions.join(', ')} only go with --oidc-issuer URL.` } : null;
  if (!flags.oidcClientId) return { problem: '--oidc-issuer needs --oidc-client-id ID: the client this binder is at the provider.' };
  const secret = secretOf(flags.oidcClientSecretFile, env);
  if ('problem' in secret) return secret;
  return {
    issuer: flags.oidcIssuer.trim(),
    clientId: flags.oidcClientId.trim(),
    ...(secret.secret ? { clientSecret: secret.secret } : {}),
    ...(flags.oidcOrgClaim ? { orgClaim: flags.oidcOrgClaim.trim() } : {}),
    allowOrgs: (flags.oidcAllowOrg ?? []).map((o) => o.trim().toLowerCase()).filter(Boolean),
    ...(flags.oidcAudience ? { audience: flags.oidcAudience.trim() } : {}),
  };
}

export const isLoopback = (host: string): boolean => {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
};
export const isWildcard = (host: string): boolean => ['0.0.0.0', '::', '[::]', ''].includes(host);

/** `4180`, `0.0.0.0:4180`, `[::1]:4180`, `example.org` → host and port; null when unreadable. */
function address(given: string): { host: string; port: number } | null {
  const text = given.trim();
  const port = (p: string): number | null => (/^\d{1,5}$/.test(p) && Number(p) <= 65535 ? Number(p) : null);
  if (/^\d+$/.test(text)) {
    const p = port(text);
    return p === null ? null : { host: DEFAULT_HOST, port: p };
  }
  const v6 = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(text);
  if (v6) {
    const p = v6[2] === undefined ? DEFAULT_PORT : port(v6[2]);
    return p === null ? null : { host: v6[1]!, port: p };
  }
  const named = /^([A-Za-z0-9.-]+)(?::(\d+))?$/.exec(text);
  if (!named) return null;
  const p = named[2] === undefined ? DEFAULT_PORT : port(named[2]);
  return p === null ? null : { host: named[1]!, port: p };
}

/** `--public-url` read: its origin (`https://binder.example`), or the sentence that says what is wrong. */
export function publicOrigin(given: string): { origin: string; host: string } | { problem: string } {
  const shown = given.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);
  let u: URL;
  try {
    u = new URL(given.trim());
  } catch {
    return { problem: `--public-url takes the address people reach the binder by, e.g. --public-url https://binder.example; "${shown}" is not one.` };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { problem: `--public-url takes an https:// address; "${shown}" is not one.` };
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) {
    return { problem: `--public-url takes an origin alone, e.g. https://binder.example: the binder answers at its root, so "${shown}" cannot be its address.` };
  }
  if (u.protocol === 'http:' && !isLoopback(u.hostname)) {
    return { problem: `--public-url ${shown} would send tokens and sessions over the network in clear: give its https:// address.` };
  }
  return { origin: u.origin, host: u.hostname.replace(/^\[|\]$/g, '').toLowerCase() };
}

/** The plan, null without --http, or the sentence that says what is wrong. */
export function httpPlan(flags: HttpFlags, env: NodeJS.ProcessEnv = process.env): HttpPlan | null | { problem: string } {
  const oidc = oidcPlan(flags, env);
  if (oidc && 'problem' in oidc) return oidc;
  const companions = [flags.tlsCert && '--tls-cert', flags.tlsKey && '--tls-key', flags.behindProxy && '--behind-proxy',
    flags.allowHost?.length && '--allow-host', flags.publicUrl && '--public-url', flags.rate && '--rate', oidc && '--oidc-issuer'].filter(Boolean);
  if (flags.http === undefined || flags.http === false) {
    return companions.length ? { problem: `${companions.join(', ')} only go with --http [HOST:]PORT.` } : null;
  }
  const at = flags.http === true ? { host: DEFAULT_HOST, port: DEFAULT_PORT } : address(flags.http);
  if (!at) return { problem: `--http takes [HOST:]PORT, e.g. --http 4180 or --http 0.0.0.0:4180; "${String(flags.http).slice(0, 60)}" is not one.` };
  if (Boolean(flags.tlsCert) !== Boolean(flags.tlsKey)) return { problem: 'TLS needs both --tls-cert FILE and --tls-key FILE.' };
  if (!isLoopback(at.host) && !flags.tlsCert && !flags.behindProxy) {
    return {
      problem: `Listening on ${at.host} lets other machines reach the binder, and tokens would cross the network in clear: `
        + 'give --tls-cert FILE and --tls-key FILE, or --behind-proxy if a proxy in front of it speaks TLS.',
    };
  }
  const publicAt = flags.publicUrl === undefined ? null : publicOrigin(flags.publicUrl);
  if (publicAt && 'problem' in publicAt) return publicAt;
  let rate: Rate | undefined;
  if (flags.rate !== undefined) {
    const given = /^(\d{1,7})(?:\/(\d{1,8}))?$/.exec(flags.rate.trim());
    const perSecond = given ? Number(given[1]) : 0;
    if (!given || perSecond < 1) return { problem: '--rate takes requests a second per token, e.g. --rate 200 (or 200/1000 with its burst).' };
    rate = { perSecond, burst: given[2] !== undefined ? Math.max(1, Number(given[2])) : perSecond * 5 };
  }
  return {
    host: at.host,
    port: at.port,
    ...(flags.tlsCert && flags.tlsKey ? { tls: { cert: flags.tlsCert, key: flags.tlsKey } } : {}),
    behindProxy: flags.behindProxy === true,
    // The public address's host is one the server is reached by: a request through the proxy names it.
    allowHosts: [...(flags.allowHost ?? []), ...(publicAt ? [publicAt.host] : [])].map((h) => h.trim().toLowerCase()).filter(Boolean),
    ...(publicAt ? { publicUrl: publicAt.origin } : {}),
    ...(rate ? { rate } : {}),
    ...(oidc ? { oidc } : {}),
  };
}
