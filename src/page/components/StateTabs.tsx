/// <reference lib="dom" />
/**
 * A list's states as tabs, for a phone, where the board shows one column at a time: a tap on a
 * tab (or a swipe across the board) shows that state's column. Shown by the style sheet on a
 * narrow screen alone; the column the keys are in is the one shown.
 */
import { useEffect, useRef, useState, type TouchEvent } from 'react';
import type { Column } from '../list-page.js';
import { usePage } from '../page-context.js';

/** The column shown, the tabs to choose it, and the swipe that moves it one state along. */
export function useStateTab(list: string, columns: readonly Column[]) {
  const { state } = usePage();
  const [tab, setTab] = useState(state.column);
  // Another list, or the keys moved to another column: that column is the one shown.
  useEffect(() => setTab(state.column), [state.column, list]);
  const shown = Math.min(tab, Math.max(0, columns.length - 1));
  const start = useRef<{ x: number; y: number } | null>(null);
  const swipe = {
    onTouchStart: (e: TouchEvent) => {
      const t = e.touches[0];
      start.current = t ? { x: t.clientX, y: t.clientY } : null;
    },
    onTouchEnd: (e: TouchEvent) => {
      const t = e.changedTouches[0];
      const from = start.current;
      start.current = null;
      if (!t || !from) return;
      const dx = t.clientX - from.x;
      // Sideways and far enough to be meant: a scroll down the column is not a swipe.
      if (Math.abs(dx) < 60 || Math.abs(dx) < 2 * Math.abs(t.clientY - from.y)) return;
      setTab(Math.max(0, Math.min(columns.length - 1, shown + (dx < 0 ? 1 : -1))));
    },
  };
  return { shown, setTab, swipe };
}

export function StateTabs({ columns, shown, onPick }: { columns: readonly Column[]; shown: number; onPick(at: number): void }) {
  const { pw } = usePage();
  return (
    <div className="state-tabs" role="tablist" aria-label={pw.states}>
      {columns.map((c, at) => (
        <button key={c.state.id} type="button" role="tab" id={`tab-${c.state.id}`} aria-selected={at === shown} aria-controls={`column-${c.state.id}`} onClick={() => onPick(at)}>
          {c.state.name} <span className="count">{c.count}</span>
        </button>
      ))}
    </div>
  );
}
