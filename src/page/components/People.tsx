/// <reference lib="dom" />
/**
 * The people of a signed-in binder (only where people sign in through a provider): everyone sees
 * who is there, with their e-mail and role; an admin makes a person admin or member (`R`) and
 * removes one (`D`), each asked first, on the row under the cursor. A member sees no such action.
 * The store decides every role (the last admin is kept, a member refused): the page only asks it,
 * and shows its sentence.
 */
import type { Person } from '../../store/index.js';
import { usePage, usePanelKeys, useRead } from '../page-context.js';
import { Row } from './Row.js';

export function PeoplePanel() {
  const { pw, person, role, state, dispatch } = usePage();
  const words = pw.people;
  const read = useRead<Person[]>('people', {});
  const people = (read.answer?.data ?? []).filter((p) => p.removed === null);
  const shown = (p: Person) => (p.email ? `${p.name} <${p.email}>` : p.name);
  const admin = role === 'admin';
  const changeRole = (p: Person) => {
    const to = p.role === 'admin' ? 'member' : 'admin';
    dispatch({ type: 'dialog', dialog: { kind: 'confirm', op: 'set-role', args: { person: p.id, role: to }, text: words.confirmRole(shown(p), to) } });
  };
  const remove = (p: Person) => dispatch({ type: 'dialog', dialog: { kind: 'confirm', op: 'remove-person', args: { person: p.id }, text: words.confirmRemove(shown(p)) } });
  usePanelKeys(people.length, (command) => {
    const p = people[state.panelAt];
    if ((command !== 'personRole' && command !== 'personRemove') || !p) return false;
    if (command === 'personRole') changeRole(p);
    else remove(p);
    return true;
  });
  return (
    <section aria-labelledby="people-title">
      <h2 id="people-title">{words.title}</h2>
      <p>{words.youAre(role)}</p>
      {read.answer && !read.answer.ok && <p className="warn" role="alert">{read.answer.text}</p>}
      {!read.answer ? <p>{pw.loading}</p> : (
        <ul className="people">
          {people.map((p, at) => (
            <Row key={p.id} at={at}>
              <strong>{p.name}</strong>{p.email ? <> <span className="meta">&lt;{p.email}&gt;</span></> : null}{' '}
              <span className={`role role-${p.role}`}>{words.role[p.role]}</span>{p.id === person.id ? ` ${words.you}` : ''}
              {admin && (
                <>
                  {' '}
                  <button type="button" onClick={() => changeRole(p)} aria-keyshortcuts="R">
                    {p.role === 'admin' ? words.makeMember : words.makeAdmin} <span className="visually-hidden">{p.name}</span> <kbd>R</kbd>
                  </button>{' '}
                  <button type="button" onClick={() => remove(p)} aria-keyshortcuts="D">
                    {words.remove} <span className="visually-hidden">{p.name}</span> <kbd>D</kbd>
                  </button>
                </>
              )}
            </Row>
          ))}
        </ul>
      )}
      <p className="hint">{admin ? words.keys : words.membersSee}</p>
    </section>
  );
}
