/**
 * What `--http [HOST:]PORT` and its companions ask for, read and checked before anything listens:
 * a non-loopback address needs TLS, or a proxy said to be in front. Pure and light (no HTTP
 * library): `binder serve` and `binder tui` read their options with it.
 */
import type { Rate } from './rate.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4180;

export interface HttpPlan {
  host: string;
  port: number;
  tls?: { cert: string; key: string };
  behindProxy: boolean;
  allowHosts: string[];
  rate?: Rate;
}

/** The options as given on the command line. */
export interface HttpFlags {
  /** `--http` alone is true; with a value, `[HOST:]PORT` (or HOST alone). */
  http?: string | boolean;
  tlsCert?: string;
  tlsKey?: string;
  behindProxy?: boolean;
  allowHost?: string[];
  rate?: string;
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

/** The plan, null without --http, or the sentence that says what is wrong. */
export function httpPlan(flags: HttpFlags): HttpPlan | null | { problem: string } {
  const companions = [flags.tlsCert && '--tls-cert', flags.tlsKey && '--tls-key', flags.behindProxy && '--behind-proxy',
    flags.allowHost?.length && '--allow-host', flags.rate && '--rate'].filter(Boolean);
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
    allowHosts: (flags.allowHost ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean),
    ...(rate ? { rate } : {}),
  };
}
