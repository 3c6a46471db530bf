/**
 * Asks the keeper every few seconds which records fell due, and hands each to `tell` once.
 * The keeper reports a record once ever, so nothing here needs to remember.
 */
import { useEffect } from 'react';
import type { Keeper } from '../../keeper/keeper-types.js';
import type { DueRecord } from '../../store/types.js';

export function useDue(keeper: Keeper, everyMs: number, tell: (records: DueRecord[]) => void): void {
  useEffect(() => {
    const look = () => {
      const due = keeper.due();
      if (due.length) tell(due);
    };
    look();
    const timer = setInterval(look, everyMs);
    return () => clearInterval(timer);
  }, [keeper, everyMs, tell]);
}
