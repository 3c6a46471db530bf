/// <reference lib="dom" />
/**
 * A record's card on the board (and its title's cell in a table): a button that opens the record,
 * dragged to another state with HTML5 drag and drop carrying the mark of what it showed. The
 * cursor's card (the record selected, held by its id) has the focus, so a screen reader follows
 * the keys. Its title is text, never HTML.
 */
import { memo, useEffect, useRef, type Dispatch, type DragEvent } from 'react';
import { approvalMark } from '../../store/light.js';
import type { RecordSummary } from '../../store/index.js';
import { claimMark, dueStatus } from '../../person/format.js';
import { ownerNames, type NameOf } from '../../person/names.js';
import type { Words } from '../../person/words.js';
import { usePage } from '../page-context.js';
import type { PageAction } from '../page-state.js';

/** What a dragged card carries: its record's number. */
export const DRAG_TYPE = 'application/x-binder-record';
/** The approval mark of the card as it was shown when dragged: a drop past the gate approves that, and is refused if the record says otherwise now. */
export const MARK_TYPE = 'application/x-binder-mark';

interface CardProps { record: RecordSummary; cursor: boolean; column: number; row: number; numbered?: boolean }
interface FaceProps extends Required<CardProps> { focusHere: boolean; words: Words; nameOf: NameOf; dispatch: Dispatch<PageAction> }

/** A record's card: `numbered` false in a table, whose number is in a column of its own. */
export function Card({ record, cursor, column, row, numbered = true }: CardProps) {
  const { words, dispatch, state, nameOf } = usePage();
  const focusHere = cursor && state.focus === 'records' && !state.panel && !state.dialog;
  return <CardFace record={record} cursor={cursor} column={column} row={row} numbered={numbered} focusHere={focusHere} words={words} nameOf={nameOf} dispatch={dispatch} />;
}

/**
 * A card is drawn again when what it shows changed, not with every change of the page (the
 * selection placed, a key, an answer about something else): a board has hundreds. One with a due
 * date or a claim is drawn again every time, as the clock alone may change what it says.
 */
const sameFace = (was: FaceProps, now: FaceProps): boolean =>
  !now.record.due && !now.record.lease && (Object.keys(now) as (keyof FaceProps)[]).every((key) => was[key] === now[key]);

const CardFace = memo(function CardFace({ record, cursor, column, row, numbered, focusHere, words, nameOf, dispatch }: FaceProps) {
  const ref = useRef<HTMLButtonElement>(null);
  // Given just before the browser's next frame, not in the draw: a card given the focus is placed
  // (and scrolled into view), and every card with it; in the draw, the browser would place them there
  // and then, before the draw is done, and again for what the draw changes after.
  useEffect(() => {
    if (!focusHere) return undefined;
    const frame = requestAnimationFrame(() => {
      const at = document.activeElement;
      if (at !== ref.current && (at === document.body || at?.closest('.board, .table'))) ref.current?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [focusHere]);
  const now = Date.now();
  const due = dueStatus(record.due, now);
  return (
    <button
      ref={ref}
      type="button"
      className={`card${cursor ? ' cursor' : ''}`}
      tabIndex={cursor ? 0 : -1}
      draggable
      data-record={record.id}
      // In a table the number is in a column of its own; a screen reader still hears it with the title.
      {...(numbered ? {} : { 'aria-label': `#${record.id} ${record.title}` })}
      onDragStart={(e: DragEvent) => {
        e.dataTransfer.setData(DRAG_TYPE, String(record.id));
        e.dataTransfer.setData(MARK_TYPE, approvalMark(record.title, record.fields));
        e.dataTransfer.setData('text/plain', `#${record.id}`);
        e.dataTransfer.effectAllowed = 'move';
      }}
      onFocus={() => dispatch({ type: 'select', column, row, record: { id: record.id, state: record.state } })}
      onClick={() => dispatch({ type: 'panel', panel: { kind: 'record', id: record.id } })}
    >
      {numbered && <><span className="id">#{record.id}</span> </>}<span className="title">{record.title}</span>
      <span className="marks">
        {record.approved && <span className="approved">✓ {words.view.approved}</span>}
        {record.owners.length > 0 && <span className="owners">{ownerNames(record.owners, nameOf)}</span>}
        {record.due && <span className={due === 'overdue' ? 'overdue' : 'due'}>{due === 'overdue' ? `! ${record.due}` : record.due}</span>}
        {record.lease && <span className="claim">{claimMark(record.lease, words, now)}</span>}
        {record.blocked ? <span className="blocked">{words.view.waitsOn(record.blocked)}</span> : null}
        {record.attached > 0 && <span className="attached">{words.view.attached(record.attached)}</span>}
      </span>
    </button>
  );
}, sameFace);
