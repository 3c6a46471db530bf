/**
 * The person's API, for the web page: every operation of the catalog (`GET /page/api/<op>?…` for
 * those that only read, `POST` with a JSON object for the others), done through the keeper's one
 * dispatch as the person of the session — never as anyone a request names. Answers carry the
 * data (the page draws from data with the screen's words, never from an agent's text). And
 * `GET /page/events`: a stream that says "changed" whenever the binder changes, by anyone, so
 * that the page reads its view again; it carries no record, only that something changed.
 */
import type { Context, Hono } from 'hono';
import type { Keeper } from '../keeper/keeper-types.js';
import { operation } from '../keeper/operations.js';
import { refusedAs } from '../keeper/perform.js';
import { Refused } from '../store/index.js';
import { bodyOf, jsonOf, refuse, statusOf } from './answers.js';
import type { HttpEnv } from './auth.js';
import { eventStream, openStreams } from './event-stream.js';
import { STREAMS_PER_AGENT } from './limits.js';
import { reading, requestArgs } from './rest.js';

/** The language the page is read in (its `Binder-Lang` header): French, or English. */
const pageLang = (c: Context<HttpEnv>): 'en' | 'fr' => (c.req.header('binder-lang') === 'fr' ? 'fr' : 'en');

/** What the page never asks through this route: a wait is held for agents (the page has its stream). */
const NOT_HERE = new Set(['wait']);
/** How many of each webhook's latest deliveries the page's log shows. */
const RECENT_DELIVERIES = 10;

/** What the routes give back: a session signed out here ends its pages' streams at once. */
export interface PageStreams { signedOut(session: string): void }

/** `service`: the keeper of the sessions (the service store, where people sign in). */
export function pageApiRoutes(app: Hono<HttpEnv>, service: Keeper): PageStreams {
  app.on(['GET', 'POST'], '/page/api/:op', async (c) => {
    const name = c.req.param('op');
    const spec = operation(name);
    if (!spec || NOT_HERE.has(name)) return refuse(c, 404, `The page has no operation "${name.slice(0, 40).replace(/[^\x20-\x7e]/g, '?')}".`);
    if (reading(c) && !spec.readOnly) return refuse(c, 405, `${name} changes the binder: POST it.`, { Allow: 'POST' });
    const args = await requestArgs(c);
    if (!args) return refuse(c, 400, 'Send the arguments as one JSON object.');
    const lang = pageLang(c);
    const person = c.get('person');
    const answer = await c.get('keeper').act(name, args, person.who, { lang });
    // A person removed from their organisation's binder while this was asked: their session was
    // ended by the removal, and the refusal says they are signed out.
    if (!answer.ok && answer.refusal === 'access' && person.cookie && person.org
      && (await c.get('keeper').store.removedPeople(person.who.id)).length > 0) {
      return jsonOf(c, bodyOf(answer), 401, { 'Cache-Control': 'no-store' });
    }
    return jsonOf(c, bodyOf(answer), statusOf(answer), { 'Cache-Control': 'no-store' });
  });

  // The webhooks and how their deliveries went (each one's latest), for the page's panel: an
  // admin's to see; the store refuses anyone else, with its sentence in the page's language.
  // Never a hook's secret (the store gives none).
  app.get('/page/webhooks', async (c) => {
    const person = c.get('person');
    try {
      const hooks = await c.get('keeper').store.hooks(person.who, { recent: RECENT_DELIVERIES });
      return jsonOf(c, { ok: true, text: '', data: hooks }, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      return refuse(c, 403, refusedAs(error, pageLang(c) === 'fr').text, { 'Cache-Control': 'no-store' });
    }
  });

  const open = openStreams();
  /** Each open stream's end, by session: a sign-out in this process ends them without waiting for a ping. */
  const ends = new Map<string, Set<() => void>>();
  app.get('/page/events', (c) => {
    const person = c.get('person');
    const { session } = person;
    const keeper: Keeper = c.get('keeper');
    if (open.full(session)) {
      return refuse(c, 429, `This browser has ${STREAMS_PER_AGENT} pages open on the binder already: close one first.`, { 'Retry-After': '5' });
    }
    let told = 0;
    let soon: NodeJS.Immediate | null = null;
    let unlisten = (): void => {};
    const stream = eventStream(c, {
      open,
      holder: session,
      onPing: () => void stillIn(),
      onStop() {
        unlisten();
        if (soon) clearImmediate(soon);
        ends.get(session)?.delete(signedOut);
        if (ends.get(session)?.size === 0) ends.delete(session);
      },
    });
    stream.send('retry: 1000\n\nevent: ready\ndata: {}\n\n');
    // Several changes at once make one event: the page reads its view once for them.
    // The session ended (signed out, revoked, its person removed): the page is told to read again,
    // is refused there and shows how to sign in; the stream ends, telling nothing more.
    const signedOut = (): void => {
      if (stream.stopped) return;
      stream.send('event: changed\ndata: {"n":0}\n\n');
      stream.end();
    };
    ends.set(session, (ends.get(session) ?? new Set()).add(signedOut));
    let looking = false;
    const stillIn = async (): Promise<void> => {
      if (looking || stream.stopped) return;
      looking = true;
      try {
        const ok = (!person.cookie || (await service.store.checkSession(person.cookie)).ok)
          && (!person.org || keeper === service || (await keeper.store.removedPeople(person.who.id)).length === 0);
        if (ok || stream.stopped) return;
        signedOut();
      } catch {
        // The store failed this once: the next change looks again.
      } finally {
        looking = false;
      }
    };
    // A removal is a change of the organisation's binder, looked at when it comes; a sign-out through
    // this process ends the stream at once (signedOut, below); a session ended otherwise (signed out
    // through another keeper, revoked by binder admin sessions) is seen at the next ping.
    unlisten = keeper.onNews(() => {
      if (person.org && keeper !== service) void stillIn();
      if (soon || stream.stopped) return;
      soon = setImmediate(() => {
        soon = null;
        told += 1;
        stream.send(`event: changed\ndata: {"n":${told}}\n\n`);
      });
    });
    return stream.response;
  });
  return {
    signedOut(session) {
      for (const signedOut of [...(ends.get(session) ?? [])]) signedOut();
    },
  };
}
