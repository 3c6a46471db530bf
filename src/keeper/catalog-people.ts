/**
 * The catalog's entries for the people who sign in and their roles: who they are, a role given,
 * a person removed. A person's and an admin's alone (the store decides both); no agent's face
 * offers them. A person is shown by name and e-mail, never by anything the provider did not give.
 */
import type { Person, Role, Who } from '../store/index.js';
import type { CatalogContext, CatalogEntry } from './catalog.js';
import { utc } from './catalog-together.js';
import { lines, said, type Shown } from './text-values.js';

type Args = Record<string, unknown>;
const entry = <D>(run: (a: Args, who: Who, ctx: CatalogContext) => D | Promise<D>, say: (d: D, a: Args, who: Who) => string): CatalogEntry =>
  ({ run: async (a, who, ctx) => run(a, who, ctx), say: say as CatalogEntry['say'] });

/** `Ann Lee <ann@acme.test>`, or the name alone. */
const named = (p: Person): Shown => (p.email ? said`${p.name} <${p.email}>` : said`${p.name}`);

const personLine = (p: Person, who: Who): Shown =>
  said`${named(p)}  ${p.removed ? said`removed ${utc(p.removed)}` : said`${p.role}`}${p.id === who.id ? ' (you)' : ''}  signed in first ${utc(p.firstSignIn)}, last ${utc(p.lastSignIn)}  ${p.id}`;

export const PEOPLE = {
  people: entry(
    (_a, who, { store }) => store.people(who),
    (ps, _a, who) => (ps.length
      ? lines(ps.map((p) => personLine(p, who)))
      : 'Nobody has signed in to this binder yet: the first person to sign in becomes its admin.'),
  ),
  'set-role': entry(
    (a, who, { store }) => store.setRole(String(a.person), a.role as Role, who),
    (p) => said`${named(p)} is ${p.role === 'admin' ? 'an admin' : 'a member'} of this binder now.`.text,
  ),
  'remove-person': entry(
    (a, who, { store }) => store.removePerson(String(a.person), who),
    (p) => said`Removed ${named(p)}: refused from now on; what they did stays in the history. binder admin set-role lets them back in.`.text,
  ),
} satisfies Record<string, CatalogEntry>;
