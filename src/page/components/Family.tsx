/// <reference lib="dom" />
/**
 * What a record lies under and what lies under it, on its panel: the parent a link to it
 * (`#/record/N`, the address a notification gives), the children each a row the keys go over
 * (Enter, or a click, opens one) with its state, and how many of them are done. Text as text.
 */
import type { NeedLink } from '../../store/index.js';
import { usePage } from '../page-context.js';
import { Row } from './Row.js';

const address = (id: number): string => `#/record/${id}`;

/** The parent, as one of the record's facts: a link that opens it. */
export function ParentFact({ parent, open }: { parent: NeedLink; open(id: number): void }) {
  const { words } = usePage();
  return (
    <>
      <dt>{words.record.parent}</dt>
      <dd>
        <a href={address(parent.id)} onClick={() => open(parent.id)}>#{parent.id} {parent.title}</a>{' '}
        <span className="meta">· {parent.stateName}</span>
      </dd>
    </>
  );
}

/** The records under it, from the row `from` of the panel's parts; nothing when there are none. */
export function Children({ links, from, open }: { links: readonly NeedLink[]; from: number; open(id: number): void }) {
  const { words } = usePage();
  if (!links.length) return null;
  const done = links.filter((l) => l.done).length;
  return (
    <section aria-labelledby="children-title">
      <h3 id="children-title">{words.record.children} ({words.record.childrenDone(done, links.length)})</h3>
      <ul className="needs children">
        {links.map((c, i) => (
          <Row key={c.id} at={from + i}>
            <a href={address(c.id)} onClick={() => open(c.id)}>#{c.id} {c.title}</a>{' '}
            <span className="meta">· {c.stateName}</span>
          </Row>
        ))}
      </ul>
    </section>
  );
}
