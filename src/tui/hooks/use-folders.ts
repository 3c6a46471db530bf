/**
 * The folders the keeper reads and how each is doing, refreshed every second (and at each answer)
 * so the status line's "asked 3s ago" stays true.
 */
import { useEffect, useState } from 'react';
import type { FolderStatus, Keeper } from '../../keeper/keeper-types.js';

export function useFolders(keeper: Keeper, now: () => number): { folders: FolderStatus[]; at: number } {
  const [seen, setSeen] = useState(() => ({ folders: keeper.folders(), at: now() }));
  useEffect(() => {
    const refresh = () => setSeen({ folders: keeper.folders(), at: now() });
    const off = keeper.onAnswer(refresh);
    const timer = setInterval(refresh, 1000);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [keeper, now]);
  return seen;
}
