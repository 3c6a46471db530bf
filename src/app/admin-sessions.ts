/**
 * `binder admin login-link` and `binder admin sessions`: a person's commands beside the catalog
 * for signing in to the web page. A link is made in the store (only its key's hash kept) and
 * given with the address of the server that keeps this store over HTTP (its `serving.json`), or
 * `--url`. These are never an agent's: no catalog verb, no MCP tool reaches them.
 */
import type { Command } from 'commander';
import { readServing } from '../http/serving.js';
import type { Place } from '../exchange/commands.js';
import { withStore } from './admin-store.js';
import { noLinksRefusal, Refused, type SessionInfo, type StoreAccess, type Who } from '../store/index.js';
import { utc } from '../keeper/catalog-together.js';
import { jsonDocument } from '../keeper/json-document.js';
import { safeAnswer } from '../keeper/terminal-safe.js';

type Run = (place: Place) => Promise<number>;

const sessionLine = (s: SessionInfo): string =>
  `${s.id}  ${s.person}  signed in ${utc(s.created)}, last used ${utc(s.used)}, ends ${utc(s.expires)}${s.browser ? `  (${s.browser.slice(0, 60)})` : ''}`;

/** An organisation's open sessions, or those of them `revoke` names (an id, a person, all), ended. */
async function orgSessions(store: StoreAccess, org: string, revoke: string | undefined, who: Who): Promise<SessionInfo[]> {
  const open = (await store.sessions(who)).filter((s) => s.org === org);
  if (revoke === undefined) return open;
  const named = open.filter((s) => revoke === 'all' || s.id === revoke || s.person === revoke || s.email === revoke);
  if (named.length === 0) throw new Refused(`No open session of ${org} has the id "${revoke}" or is that person's: binder admin --org ${org} sessions lists them.`, `Aucune session ouverte de ${org} n'a l'id « ${revoke} » ni n'est de cette personne : binder admin --org ${org} sessions les liste.`);
  const ended: SessionInfo[] = [];
  for (const s of named) ended.push(...(await store.revokeSessions(s.id, who)));
  return ended;
}

export function addSessionCommands(admin: Command, chosen: (run: Run) => void): void {
  admin.command('login-link')
    .description('Print a one-time link (10 minutes, one use) that signs a browser in to the page, as you (or --as NAME).')
    .option('--url <URL>', 'the page\'s address, when the server is reached by another (a proxy, a tunnel)')
    .addHelpText('after', '\nExample:\n  binder admin login-link --as Ann\n\nThe server must be running with --http (binder serve --http, binder tui --http).')
    .action((o: { url?: string }) => {
      chosen(async (place) => {
        const { who, json } = place;
        // Where people sign in through a provider, the store refuses a link: said before any address is sought.
        const linksHere = await withStore(place.service ?? place.store, async (store) => {
          const issuer = await store.signInIssuer();
          if (issuer !== null) throw noLinksRefusal(issuer);
          return 0;
        });
        if (linksHere !== 0) return linksHere;
        const given = o.url?.trim().replace(/\/+$/, '');
        if (given !== undefined && !/^https?:\/\/[^\s/]+$/.test(given)) {
          process.stderr.write('--url takes the page\'s address: http://HOST:PORT or https://HOST.\n');
          return 64;
        }
        // A keeper of a folder's store says where it answers beside it; a database server's is given with --url.
        const url = given ?? (place.store.kind === 'sqlite' ? readServing(place.store.dir)?.url : undefined);
        if (!url && place.store.kind === 'postgres') {
          process.stderr.write('Not done: this binder is in PostgreSQL, where its keepers say nowhere which address they answer on: '
            + 'give the page\'s address with --url (binder admin login-link --url https://binder.example).\n');
          return 3;
        }
        if (!url) {
          process.stderr.write('Not done: no server keeps this binder over HTTP: start binder serve --http (or binder tui --http), '
            + 'or give the page\'s address with --url.\n');
          return 3;
        }
        return withStore(place.store, async (store) => {
          const made = await store.addLoginLink(who.name, who);
          const link = `${url}/#login=${made.key}`;
          process.stdout.write(json ? `${jsonDocument({ link, person: made.person, expires: made.expires })}\n`
            : `${link}\n${safeAnswer(`Opens the page as ${made.person}, once, until ${utc(made.expires)}: open it in your browser (over SSH: ssh -L PORT:127.0.0.1:PORT host first).`)}\n`);
          return 0;
        });
      });
    });
  admin.command('sessions')
    .description('The page\'s open sessions (who, since when, last used), or end one: --revoke ID, a person\'s name, or all.')
    .option('--revoke <ID|NAME|all>', 'end that session, that person\'s sessions, or every one')
    .addHelpText('after', '\nExamples:\n  binder admin sessions\n  binder admin sessions --revoke all')
    .action((o: { revoke?: string }) => {
      // An organisation's sessions are kept in the service's own store, each with its organisation.
      chosen(async (place) => withStore(place.service ?? place.store, async (store) => {
        const { who, json, org } = place;
        const shown = org === undefined
          ? (o.revoke !== undefined ? await store.revokeSessions(o.revoke, who) : await store.sessions(who))
          : await orgSessions(store, org, o.revoke, who);
        if (json) process.stdout.write(`${jsonDocument(shown)}\n`);
        else if (o.revoke !== undefined) process.stdout.write(safeAnswer(`Ended ${shown.length === 1 ? 'one session' : `${shown.length} sessions`}: ${shown.map((s) => `${s.id} (${s.person})`).join(', ')}.`) + '\n');
        else process.stdout.write(shown.length ? `${shown.map((s) => safeAnswer(sessionLine(s))).join('\n')}\n` : 'No session is open.\n');
        return 0;
      }));
    });
}
