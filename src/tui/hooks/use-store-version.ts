/**
 * A number that moves whenever the binder changed: at once for a change made through this
 * keeper (an agent's ask, the person's act), and within a poll for a change made by another
 * process on the same store (PRAGMA data_version). Reads are keyed on it, never on a timer.
 */
import { useEffect, useState } from 'react';
import type { Keeper } from '../../keeper/keeper-types.js';

export function useStoreVersion(keeper: Keeper, pollMs: number): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const off = keeper.onChange(bump);
    let seen = keeper.store.dataVersion();
    const timer = setInterval(() => {
      const now = keeper.store.dataVersion();
      if (now !== seen) {
        seen = now;
        bump();
      }
    }, pollMs);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [keeper, pollMs]);
  return version;
}
