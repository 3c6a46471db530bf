/**
 * Asks the keeper every few seconds which records fell due, and hands each to `tell` once.
 * The keeper reports a record once ever, so nothing here needs to remember.
 */
import { useEffect } from 'react';
import type { Keeper } from '../../keeper/keeper-types.js';
import type { DueRecord } from '../../store/index.js';

export function useDue(keeper: Keeper, everyMs: number, tell: (records: DueRecord[]) => void): void {
  useEffect(() => {
    let live = true;
    const look = () => {
      keeper.due().then((due) => {
        if (live && due.length) tell(due);
      }, () => undefined);
    };
    look();
    const timer = setInterval(look, everyMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [keeper, everyMs, tell]);
}
