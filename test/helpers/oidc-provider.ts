/**
 * A real OpenID Connect provider for the tests: oauth2-mock-server listening on a loopback port
 * (discovery, keys, authorize, token, end of session), whose next tokens carry the claims a test
 * chooses (`as(...)`: who signs in next), and that makes access tokens directly (good ones,
 * expired ones, for another audience). It signs in whoever comes, with no password: a test's
 * provider, never a real one.
 */
import type { TestContext } from 'node:test';
import { OAuth2Server } from 'oauth2-mock-server';

export interface Claims { sub: string; name?: string; email?: string; email_verified?: boolean; [claim: string]: unknown }

export interface Provider {
  /** Its issuer: http://localhost:PORT. */
  issuer: string;
  clientId: string;
  /** Who the next sign-ins are (until said otherwise). */
  as(claims: Claims): void;
  /** An access token for `claims`, signed by the provider's key (or changed by `change`). */
  token(claims: Claims, options?: { expiresIn?: number; change?: (payload: Record<string, unknown>) => void }): Promise<string>;
  /** How many times its token endpoint was asked. */
  tokensAsked(): number;
  server: OAuth2Server;
  stop(): Promise<void>;
}

export async function provider(t: TestContext | null, clientId = 'binder-test'): Promise<Provider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  let current: Claims = { sub: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test', email_verified: true };
  let asked = 0;
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, current);
    // Access tokens name this binder too (the ID token names the client already).
    if (token.payload.aud === undefined) token.payload.aud = clientId;
  });
  server.service.on('beforeResponse', () => { asked += 1; });
  const stop = async (): Promise<void> => {
    if (server.issuer.url && server.listening) await server.stop();
  };
  t?.after(stop);
  return {
    issuer: server.issuer.url!,
    clientId,
    as(claims) { current = claims; },
    async token(claims, options = {}) {
      return server.issuer.buildToken({
        expiresIn: options.expiresIn ?? 3600,
        scopesOrTransform: (_header, payload) => {
          Object.assign(payload, { aud: clientId }, claims);
          options.change?.(payload as Record<string, unknown>);
        },
      });
    },
    tokensAsked: () => asked,
    server,
    stop,
  };
}
