/**
 * The catalog's entry for `needs`: a record that needs others done first, or no longer does.
 * The rule (write access to both lists, no circle) is the store's; this only reads the words
 * given (`12 14`, `#12,#14`) and says the answer.
 */
import type { CatalogContext, CatalogEntry } from './catalog.js';
import type { Who } from '../store/index.js';
import { sayNeeds } from './text-needs.js';
import type { Told } from './text-values.js';

type Args = Record<string, unknown>;
const entry = <D>(run: (a: Args, who: Who, ctx: CatalogContext) => D | Promise<D>, say: (d: D, a: Args) => Told): CatalogEntry =>
  ({ run: async (a, who, ctx) => run(a, who, ctx), say: say as CatalogEntry['say'] });

const recordRef = (v: unknown): number | string => (typeof v === 'number' ? v : String(v ?? ''));

export const NEEDS = {
  needs: entry(
    (a, who, { store }) => store.needs(recordRef(a.id), [String(a.others ?? '')], who, { remove: a.remove === true }),
    (d, a) => sayNeeds(d, a.remove === true),
  ),
} satisfies Record<string, CatalogEntry>;
