/// <reference lib="dom" />
/**
 * A board wider than its room (a record open beside it on a desktop) scrolls sideways, and says
 * so: at an edge past which columns are hidden, a button names how many and scrolls to the next
 * of them. Gone once every column is in view; none on a phone, whose board shows one column at a
 * time. It reads where the columns are drawn and scrolls the board; nothing else.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { usePage } from '../page-context.js';

interface Past { before: number; after: number }

/** How many columns lie wholly or partly past each edge of the board as it is scrolled now. */
function pastEdges(board: HTMLElement): Past {
  const room = board.getBoundingClientRect();
  let before = 0;
  let after = 0;
  for (const column of board.querySelectorAll<HTMLElement>(':scope > .column')) {
    const at = column.getBoundingClientRect();
    if (at.width === 0) continue;
    if (at.left < room.left - 1) before++;
    if (at.right > room.right + 1) after++;
  }
  return { before, after };
}

/** Draws the board by `children`, given the ref its element takes, with the signs at its edges. */
export function BoardEdges({ children }: { children(ref: RefObject<HTMLDivElement | null>): ReactNode }) {
  const { pw } = usePage();
  const board = useRef<HTMLDivElement>(null);
  const [past, setPast] = useState<Past>({ before: 0, after: 0 });
  const look = useCallback(() => {
    if (!board.current) return;
    const now = pastEdges(board.current);
    setPast((was) => (was.before === now.before && was.after === now.after ? was : now));
  }, []);
  // Columns come and go with each read, and the room with the panel beside: looked at after each
  // draw, once, just before the browser's next frame. Looked at in the draw itself, the browser
  // would place every card there and then, and again after each later change in the same draw
  // (a card given the focus): the first view would wait for it.
  const frame = useRef(0);
  useEffect(() => {
    if (!frame.current) frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      look();
    });
  });
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  useEffect(() => {
    const el = board.current;
    if (!el) return undefined;
    const resized = new ResizeObserver(look);
    resized.observe(el);
    el.addEventListener('scroll', look, { passive: true });
    return () => {
      resized.disconnect();
      el.removeEventListener('scroll', look);
    };
  }, [look]);
  /** Brings the next hidden column past that edge to the board's edge. */
  const scroll = (way: 1 | -1) => {
    const el = board.current;
    if (!el) return;
    const room = el.getBoundingClientRect();
    const columns = [...el.querySelectorAll<HTMLElement>(':scope > .column')].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0);
    const next = way === 1 ? columns.find((r) => r.right > room.right + 1) : [...columns].reverse().find((r) => r.left < room.left - 1);
    if (next) el.scrollBy({ left: way === 1 ? next.right - room.right : next.left - room.left });
  };
  return (
    <div className="board-edges">
      {children(board)}
      {past.before > 0 && <button type="button" className="edge before" onClick={() => scroll(-1)}>{pw.statesBefore(past.before)}</button>}
      {past.after > 0 && <button type="button" className="edge after" onClick={() => scroll(1)}>{pw.statesAfter(past.after)}</button>}
    </div>
  );
}
