/**
 * The tests' OpenID Connect provider as a process of its own (started by oidc-provider.ts): a
 * real oauth2-mock-server on a loopback port, and beside it a small control server on another
 * loopback port through which the test says who signs in next, has access tokens made, changes
 * the next ID tokens, and reads how many tokens were asked. Prints one line once both listen
 * (`READY {"issuer","control","kid"}`). It ends when its parent's pipe closes: it never outlives
 * the test. A test's provider: it signs in whoever comes, with no password — never a real one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';

const clientId = process.argv[2] ?? 'binder-test';
const kid = process.argv[3] || undefined;

const server = new OAuth2Server();
await server.issuer.keys.generate('RS256', kid ? { kid } : {});
await server.start(0, '127.0.0.1');

let current: Record<string, unknown> = { sub: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test', email_verified: true };
let idTokenChange: Record<string, unknown> | null = null;
let asked = 0;
/** Where its discovery says its keys are, when a test moves them (a door it can shut); else its own. */
let keysAt: string | null = null;
server.service.on('beforeWellKnownOpenIdConfiguration', (config: { body: Record<string, unknown> }) => {
  if (keysAt) config.body.jwks_uri = keysAt;
});
/** The PKCE verifiers the code's exchanges came with: a strict provider asks for one, and so does this one. */
const verifiers: string[] = [];
server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }, req: { body?: Record<string, unknown> }) => {
  if (req.body?.grant_type === 'authorization_code') {
    if (typeof req.body.code_verifier !== 'string') throw new Error('no code_verifier');
    verifiers.push(req.body.code_verifier);
  }
  Object.assign(token.payload, current);
  // Access tokens name this binder too (the ID token names the client already).
  if (token.payload.aud === undefined) token.payload.aud = clientId;
  // Only the ID token carries the nonce: a change asked for the ID token leaves the access token be.
  if (idTokenChange && token.payload.nonce) Object.assign(token.payload, idTokenChange);
});
server.service.on('beforeResponse', () => { asked += 1; });

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) as Record<string, unknown> : {};
}

const control = createServer((req: IncomingMessage, res: ServerResponse) => {
  const answer = (status: number, data: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(data));
  };
  void (async () => {
    const given = req.method === 'POST' ? await body(req) : {};
    switch (req.url) {
      case '/as':
        current = given.claims as Record<string, unknown>;
        return answer(200, {});
      case '/id-token-change':
        idTokenChange = (given.change as Record<string, unknown> | null) ?? null;
        return answer(200, {});
      case '/token': {
        const token = await server.issuer.buildToken({
          expiresIn: typeof given.expiresIn === 'number' ? given.expiresIn : 3600,
          scopesOrTransform: (_header, payload) => {
            Object.assign(payload, { aud: clientId }, given.claims, given.change ?? {});
          },
        });
        return answer(200, { token });
      }
      case '/keys-at':
        keysAt = typeof given.url === 'string' ? given.url : null;
        return answer(200, {});
      case '/verifiers':
        return answer(200, { verifiers });
      case '/asked':
        return answer(200, { asked });
      default:
        return answer(404, { error: `no ${req.url}` });
    }
  })().catch((error: unknown) => answer(500, { error: String(error) }));
});
await new Promise<void>((done) => control.listen(0, '127.0.0.1', done));

const shown = (server.issuer.keys.toJSON() as { kid: string }[])[0]!.kid;
process.stdout.write(`READY ${JSON.stringify({ issuer: server.issuer.url, control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`, kid: shown })}\n`);

// The parent gone (its pipe closed), so is the provider.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
