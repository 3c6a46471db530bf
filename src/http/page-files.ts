/**
 * The web page's files: the shell at `/` (no data in it, and without a session the sign-in
 * explanation), its script and its style, built into dist/page by scripts/build.mjs. Every answer
 * of the server carries a strict Content-Security-Policy (nothing inline, nothing from elsewhere),
 * `X-Content-Type-Options: nosniff` and `frame-ancestors 'none'`. It never serves a file it was
 * not built with: no path from a request reaches the file system.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Hono, MiddlewareHandler } from 'hono';
import type { HttpEnv } from './auth.js';

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
  + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The headers of every answer, page or not. */
const SECURITY_HEADERS: readonly [string, string][] = [
  ['Content-Security-Policy', CSP],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
];

/**
 * Said before the answer is made, so that Hono puts them in the answer it builds: set on an
 * answer already made, they cost a request about a third of the server's time (measured on
 * /healthz: 106 → 60 µs). An answer a handler made itself (SSE, MCP's transport) gets them after.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
  await next();
  const headers = c.res.headers;
  if (!headers.has('content-security-policy')) for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
};

interface Built { body: Buffer; gzip: Buffer; type: string; etag: string }

/** Where the build put the page: beside the bundles (dist/bin → dist/page), or from build/src/http. */
function pageDir(given?: string): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of given ? [given] : [join(here, '..', 'page'), join(here, '..', '..', '..', 'dist', 'page')]) {
    try {
      readFileSync(join(dir, 'app.js'));
      return dir;
    } catch {
      // Not here: the next place.
    }
  }
  return null;
}

const built = (body: Buffer, type: string): Built => ({
  body, gzip: gzipSync(body, { level: 9 }), type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
});

const SIGN_IN_HTML = `<section class="sign-in" aria-labelledby="sign-in-title">
<h1 id="sign-in-title">Binder</h1>
<p lang="en">Not signed in: this page is a person&#39;s. Open a login link from <code>binder admin login-link</code> (the screen and <code>binder serve --http</code> show one at start): it signs this browser in.</p>
<p lang="fr">Pas connecté : cette page est celle d&#39;une personne. Ouvrez un lien de connexion donné par <code>binder admin login-link</code> (l&#39;écran et <code>binder serve --http</code> en montrent un au démarrage) : il connecte ce navigateur.</p>
</section>`;

/** Signed out, where people sign in through a provider: its button, and no word of login links. */
const providerSignIn = (provider: string): string => {
  const host = provider.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<section class="sign-in" aria-labelledby="sign-in-title">
<h1 id="sign-in-title">Binder</h1>
<p>Not signed in: this page is a person&#39;s.</p>
<p><a class="sign-in-button" href="/page/oidc/start">Sign in with ${host}</a></p>
</section>`;
};

const shell = (signedIn: boolean, signedOut = SIGN_IN_HTML): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Binder</title>
<link rel="stylesheet" href="/page/app.css">
<script type="module" src="/page/app.js"></script>
</head>
<body>
<div id="root">${signedIn ? '' : signedOut}</div>
</body>
</html>
`;

export function pageRoutes(app: Hono<HttpEnv>, signedIn: (c: Parameters<MiddlewareHandler<HttpEnv>>[0]) => Promise<boolean>, dir?: string, provider?: string): void {
  const at = pageDir(dir);
  const files = new Map<string, Built>();
  if (at) {
    files.set('/page/app.js', built(readFileSync(join(at, 'app.js')), 'text/javascript; charset=utf-8'));
    files.set('/page/app.css', built(readFileSync(join(at, 'app.css')), 'text/css; charset=utf-8'));
  }
  const html = { in: built(Buffer.from(shell(true)), 'text/html; charset=utf-8'), out: built(Buffer.from(shell(false, provider ? providerSignIn(provider) : SIGN_IN_HTML)), 'text/html; charset=utf-8') };
  const send = (c: Parameters<MiddlewareHandler<HttpEnv>>[0], file: Built, cache: string): Response => {
    if (c.req.header('if-none-match') === file.etag) return c.body(null, 304, { ETag: file.etag, 'Cache-Control': cache });
    const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    return c.body(new Uint8Array(gzip ? file.gzip : file.body), 200, {
      'Content-Type': file.type, ETag: file.etag, 'Cache-Control': cache, Vary: 'Accept-Encoding',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
  };
  app.get('/', async (c) => {
    if (!at) return c.text('The page was not built: npm run build makes it.', 503);
    return send(c, (await signedIn(c)) ? html.in : html.out, 'no-store');
  });
  for (const [path, file] of files) app.get(path, (c) => send(c, file, 'no-cache'));
  // Asked by every browser: nothing, rather than a refusal in its console.
  app.get('/favicon.ico', (c) => c.body(null, 204));
}
