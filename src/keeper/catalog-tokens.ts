/**
 * The catalog's entries for agents' tokens (asking over HTTP): made, listed and revoked by a
 * person, and how their answers read. A token is shown in the answer of `token-add` alone, once;
 * nothing else here ever says more of it than its prefix.
 */
import { Refused, type TokenInfo, type TokenMade, type Who } from '../store/index.js';
import type { CatalogContext, CatalogEntry } from './catalog.js';
import { utc } from './catalog-together.js';
import { readDuration } from './durations.js';
import { lines, said, word, type Shown } from './text-values.js';

type Args = Record<string, unknown>;
const entry = <D>(run: (a: Args, who: Who, ctx: CatalogContext) => D | Promise<D>, say: (d: D, a: Args, who: Who, ctx: CatalogContext) => string): CatalogEntry =>
  ({ run: async (a, who, ctx) => run(a, who, ctx), say: say as CatalogEntry['say'] });

/** The longest a token may be made to last: ten years. */
const EXPIRES_MAX_MS = 3650 * 86_400_000;

function expiresIn(a: Args): number | undefined {
  if (a.expires === undefined || a.expires === '' || a.expires === 'never') return undefined;
  const ms = readDuration(a.expires);
  if (ms === null || ms <= 0 || ms > EXPIRES_MAX_MS) {
    throw new Refused(
      'Give --expires a length like 30d, 12h or 90m, at most 3650d (or never).',
      'Donnez à --expires une durée comme 30d, 12h ou 90m, au plus 3650d (ou never).',
      'not-understood',
    );
  }
  return ms;
}

const tokenLine = (t: TokenInfo): Shown =>
  said`${t.prefix}  ${t.name} (${t.agent})  made ${utc(t.created)}, last used ${t.used ? utc(t.used) : 'never'}, ${
    t.revoked ? said`revoked ${utc(t.revoked)}` : said`expires ${t.expires ? utc(t.expires) : 'never'}`}`;

function sayMade(t: TokenMade): string {
  return lines([
    said`${t.token}`,
    said`The token above is ${t.name}'s (${t.agent}), shown this once: keep it where only that agent can read it.${
      t.expires ? said` It stops working at ${utc(t.expires)}.` : ' It never expires.'}`,
    said`The agent asks with the header "Authorization: Bearer <token>" (binder --url URL with $BINDER_TOKEN). Revoke it: binder admin token revoke ${word(t.prefix)}`,
  ]);
}

export const TOKENS = {
  'token-list': entry(
    (_a, who, { store }) => store.tokens(who),
    (ts) => (ts.length ? lines(ts.map(tokenLine)) : 'No agent has a token: binder admin token add NAME makes one.'),
  ),
  'token-add': entry(
    (a, who, { store }) => store.addToken(String(a.name), { expiresMs: expiresIn(a) }, who),
    sayMade,
  ),
  'token-revoke': entry(
    (a, who, { store }) => store.revokeTokens(String(a.token), who),
    (ts) => lines(ts.map((t) => said`Revoked ${t.prefix} (${t.name}, ${t.agent}): it is refused from now on.`)),
  ),
} satisfies Record<string, CatalogEntry>;
