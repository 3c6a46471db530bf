/**
 * A real OpenID Connect provider for the tests, in a process of its own
 * (oidc-provider-process.ts: oauth2-mock-server on a loopback port — discovery, keys, authorize,
 * token, end of session), driven through its control port: who signs in next (`as`), access
 * tokens made directly (good ones, expired ones, with changed claims), the next ID tokens changed,
 * how many tokens were asked, and its key's id. The process is killed when the test ends, passed
 * or failed, and ends by itself if the test's process dies. It signs in whoever comes, with no
 * password: a test's provider, never a real one.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { until } from './temp.js';

export interface Claims { sub: string; name?: string; email?: string; email_verified?: boolean; [claim: string]: unknown }

export interface Provider {
  /** Its issuer: http://localhost:PORT. */
  issuer: string;
  clientId: string;
  /** The id of the key it signs with. */
  kid: string;
  /** Who the next sign-ins are (until said otherwise). */
  as(claims: Claims): Promise<void>;
  /** Claims set on the next ID tokens (a wrong nonce, audience, issuer), until null. */
  changeIdTokens(change: Record<string, unknown> | null): Promise<void>;
  /** The PKCE verifiers the codes were exchanged with (a code without one is refused). */
  verifiers(): Promise<string[]>;
  /** Its discovery names these keys' address from now on (null: its own again). */
  keysAt(url: string | null): Promise<void>;
  /** An access token for `claims`, signed by the provider's key (its claims then set from `change`). */
  token(claims: Claims, options?: { expiresIn?: number; change?: Record<string, unknown> }): Promise<string>;
  /** How many times its token endpoint was asked. */
  tokensAsked(): Promise<number>;
  stop(): Promise<void>;
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'oidc-provider-process.js');

/** Starts a provider process; `kid` makes it sign with a key of that id (a forger's). */
export async function provider(t: TestContext | null, options: { clientId?: string; kid?: string } = {}): Promise<Provider> {
  const clientId = options.clientId ?? 'binder-test';
  const child = spawn(process.execPath, [SCRIPT, clientId, options.kid ?? ''], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { err += c; });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  t?.after(stop);
  try {
    await until(() => out.includes('\n') || child.exitCode !== null, 15_000, 'the provider to start');
  } catch (error) {
    await stop();
    throw error;
  }
  const line = /^READY (.+)$/m.exec(out)?.[1];
  if (!line) {
    await stop();
    throw new Error(`the provider did not start: ${out}${err}`);
  }
  const ready = JSON.parse(line) as { issuer: string; control: string; kid: string };
  const ask = async <T>(path: string, body: unknown = {}): Promise<T> => {
    const res = await fetch(`${ready.control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const data = await res.json() as T & { error?: string };
    if (!res.ok) throw new Error(`the provider's ${path}: ${data.error}`);
    return data;
  };
  return {
    issuer: ready.issuer,
    clientId,
    kid: ready.kid,
    async as(claims) { await ask('/as', { claims }); },
    async changeIdTokens(change) { await ask('/id-token-change', { change }); },
    async keysAt(url) { await ask('/keys-at', { url }); },
    async verifiers() { return (await ask<{ verifiers: string[] }>('/verifiers')).verifiers; },
    async token(claims, given = {}) {
      return (await ask<{ token: string }>('/token', { claims, expiresIn: given.expiresIn, change: given.change })).token;
    },
    async tokensAsked() { return (await ask<{ asked: number }>('/asked')).asked; },
    stop,
  };
}
