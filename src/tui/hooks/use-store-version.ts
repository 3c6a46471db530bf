/**
 * A number that moves whenever the binder changed: at once for a change made through this
 * keeper (an agent's ask, the person's act), and soon for a change made by another process on
 * the same binder (store.onOtherChange). Reads are keyed on it, never on a timer.
 */
import { useEffect, useState } from 'react';
import type { Keeper } from '../../keeper/keeper-types.js';

export function useStoreVersion(keeper: Keeper, _pollMs: number): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const off = keeper.onChange(bump);
    const offOthers = keeper.store.onOtherChange(bump);
    return () => {
      off();
      offOthers();
    };
  }, [keeper]);
  return version;
}
